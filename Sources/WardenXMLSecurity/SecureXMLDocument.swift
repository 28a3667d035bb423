import CXMLSec
import CXMLSecShim

/// How much a document may ask of the parser. The defaults fit SAML messages (SPEC §16: messages ≤ 256 KB).
public struct XMLParseLimits: Hashable, Sendable {
    /// The most bytes accepted; longer input is refused before parsing.
    public var maxBytes: Int
    /// The deepest element nesting accepted (the root is depth 1). libxml2 refuses more than 256 on its own.
    public var maxDepth: Int

    public init(maxBytes: Int = 256 * 1024, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

/// An XML document parsed for security-sensitive reading: no DTD of any kind, no entity expansion, no network, no
/// XInclude, bounded size and depth, UTF-8 only, and every `ID` attribute registered so that duplicates are refused.
///
/// A value: signing returns a new document. Elements are handles into it (`SecureXMLElement`); read the values
/// of a signed message only from what `SecureXMLElement.verifySignature(trusting:policy:)` returns.
public struct SecureXMLDocument: Sendable {
    let storage: DocumentStorage

    /// Parses `bytes`. Refuses (never crashes on) input that is too large, not UTF-8, not well-formed, has a
    /// DOCTYPE (so any DTD, entity declaration or external entity: XXE, billion laughs), nests too deep, or gives
    /// two elements the same ID.
    public init(bytes: [UInt8], limits: XMLParseLimits = XMLParseLimits()) throws(XMLSecurityError) {
        guard bytes.count <= limits.maxBytes, bytes.count < Int(Int32.max) else {
            throw .tooLarge(limit: limits.maxBytes)
        }
        guard !bytes.isEmpty else { throw .malformed }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .notUTF8 }
        try initializeLibraries()
        var status = WARDEN_XML_OK
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                warden_xml_parse(
                    characters.baseAddress, Int32(characters.count), Int32(clamping: max(limits.maxDepth, 1)),
                    &status)
            }
        }
        guard let document = parsed else {
            switch status {
            case WARDEN_XML_DOCTYPE: throw .doctypeForbidden
            case WARDEN_XML_TOO_DEEP: throw .tooDeep(limit: limits.maxDepth)
            case WARDEN_XML_NOT_UTF8: throw .notUTF8
            case WARDEN_XML_LIBRARY: throw .libraryFailure("libxml2 parser")
            default: throw .malformed
            }
        }
        var duplicate: UnsafeMutablePointer<xmlChar>?
        switch warden_xml_register_ids(document, &duplicate) {
        case 0:
            break
        case 1:
            xmlFreeDoc(document)
            throw .duplicateID(takeString(duplicate) ?? "")
        default:
            xmlFreeDoc(document)
            throw .libraryFailure("registering IDs")
        }
        storage = DocumentStorage(document, limits: limits)
    }

    /// Parses the UTF-8 bytes of `text`.
    public init(_ text: String, limits: XMLParseLimits = XMLParseLimits()) throws(XMLSecurityError) {
        try self.init(bytes: Array(text.utf8), limits: limits)
    }

    /// The document element.
    public var root: SecureXMLElement {
        let node = storage.withTree { document in UncheckedNode(xmlDocGetRootElement(document)!) }
        return SecureXMLElement(storage: storage, node: node.pointer)
    }

    /// The element whose `ID` attribute (no namespace; SAML Core §1.3.4 `xs:ID`) is `id`, or nil.
    public func element(withID id: String) -> SecureXMLElement? {
        let node = storage.withTree { document in lookUpElement(withID: id, in: document).map(UncheckedNode.init) }
        return node.map { SecureXMLElement(storage: storage, node: $0.pointer) }
    }

    /// The document as UTF-8, with an XML declaration and no reformatting (signatures inside stay valid).
    public func serialized() throws(XMLSecurityError) -> [UInt8] {
        let bytes = storage.withTree { document in
            var output: UnsafeMutablePointer<xmlChar>?
            let count = warden_xml_serialize(document, &output)
            return takeBytes(output, count: count)
        }
        guard let bytes else { throw .libraryFailure("serializing") }
        return bytes
    }

    /// A copy of this document in which the element with `ID` `id` carries an enveloped signature by `identity`
    /// (XML-DSig 1.1 §3.1, profiled by SAML Core §5.4): exclusive C14N without comments for SignedInfo and the
    /// Reference, RSA-SHA256 (RSA key) or ECDSA-SHA256 (EC key), SHA-256, one `Reference URI="#ID"` with the
    /// enveloped-signature and exclusive C14N transforms, and the certificate in `KeyInfo/X509Data`. The Signature
    /// goes right after the element's `saml:Issuer` child when it has one (the schema order of SAML Core §2.3.3,
    /// §3.2.1, §3.2.2), else first. To sign both a Response and its Assertion, sign the Assertion first.
    public func signing(elementWithID id: String, as identity: XMLSigningIdentity) throws(XMLSecurityError)
        -> SecureXMLDocument
    {
        let bytes = try serialized()
        // A fresh tree that nothing else holds yet: the receiver stays unchanged.
        let copy = try SecureXMLDocument(
            bytes: bytes, limits: XMLParseLimits(maxBytes: max(bytes.count, 1), maxDepth: storage.limits.maxDepth))
        try copy.storage.withTree { (document) throws(XMLSecurityError) in
            guard let element = lookUpElement(withID: id, in: document) else { throw .elementNotFound(id: id) }
            guard xmlValidateNCName(id, 0) == 0 else { throw .invalidID(id) }
            let children = element.elementChildren
            guard !children.contains(where: { $0.isElement("Signature", namespaceURI: XMLNamespace.xmlDSig) })
            else { throw .alreadySigned }
            let issuer = children.first { $0.isElement("Issuer", namespaceURI: XMLNamespace.samlAssertion) }
            guard let key = identity.key.duplicate() else { throw .libraryFailure("duplicating the key") }
            guard warden_xmlsec_sign(element, issuer, key) == 0 else {
                throw .libraryFailure("signing: \(String(cString: warden_xmlsec_last_error()))")
            }
        }
        return copy
    }
}

/// A node pointer carried out of `DocumentStorage.withTree`: only dereferenced again inside it.
struct UncheckedNode: @unchecked Sendable {
    let pointer: NodePointer
    init(_ pointer: NodePointer) { self.pointer = pointer }
}
