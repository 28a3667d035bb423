import CXMLSec
import CXMLSecShim

/// An attribute of an element (namespace declarations are not attributes).
public struct XMLAttribute: Hashable, Sendable {
    public var localName: String
    /// nil for an attribute without a namespace (most SAML attributes: `ID`, `Destination`, …).
    public var namespaceURI: String?
    public var value: String

    public init(localName: String, namespaceURI: String?, value: String) {
        self.localName = localName
        self.namespaceURI = namespaceURI
        self.value = value
    }
}

/// An element of a `SecureXMLDocument`: what SAML reads (names, attributes, text, children).
///
/// There is deliberately no way up (no parent, no siblings): from the element that
/// `verifySignature(trusting:policy:)` returns nothing outside the signed bytes can be reached.
public struct SecureXMLElement: @unchecked Sendable, Hashable {
    // @unchecked: `node` is only dereferenced inside `storage.withTree` (see `DocumentStorage`).
    let storage: DocumentStorage
    let node: NodePointer

    init(storage: DocumentStorage, node: NodePointer) {
        self.storage = storage
        self.node = node
    }

    public static func == (lhs: SecureXMLElement, rhs: SecureXMLElement) -> Bool {
        lhs.storage === rhs.storage && lhs.node == rhs.node
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(storage))
        hasher.combine(node)
    }

    private func read<Value: Sendable>(_ body: (NodePointer) -> Value) -> Value {
        storage.withTree { _ in body(node) }
    }

    private func wrap(_ nodes: [NodePointer]) -> [SecureXMLElement] {
        nodes.map { SecureXMLElement(storage: storage, node: $0) }
    }

    /// The local name (`Assertion` for `saml:Assertion`).
    public var localName: String { read { $0.localName } }

    /// The namespace URI, or nil when the element is in no namespace.
    public var namespaceURI: String? { read { $0.namespaceURI } }

    /// The prefix as written (`saml`), or nil for the default namespace or none.
    public var prefix: String? { read { $0.prefix } }

    /// The attributes in document order.
    public var attributes: [XMLAttribute] { read { $0.attributes } }

    /// The value of the attribute `localName` in `namespaceURI` (nil: the attribute without a namespace, as SAML's
    /// own attributes are), or nil when absent.
    public func attribute(_ localName: String, namespaceURI: String? = nil) -> String? {
        read { $0.attribute(localName, namespaceURI: namespaceURI) }
    }

    /// The `ID` attribute (SAML Core §1.3.4), or nil.
    public var id: String? { attribute("ID") }

    /// All text below the element, concatenated in document order (XPath `string()`): comments and processing
    /// instructions neither end nor split it, so `user@evil.com<!---->.example.com` reads as
    /// `user@evil.com.example.com`, the value the signature covered (comment truncation).
    public var textContent: String { read { $0.textContent } }

    /// The child elements in document order.
    public var children: [SecureXMLElement] { wrap(read { UncheckedNodes($0.elementChildren) }.pointers) }

    /// The child elements named `localName` in `namespaceURI`, in document order.
    public func children(named localName: String, namespaceURI: String?) -> [SecureXMLElement] {
        let nodes = read { node in
            UncheckedNodes(node.elementChildren.filter { $0.isElement(localName, namespaceURI: namespaceURI) })
        }
        return wrap(nodes.pointers)
    }

    /// The first child element named `localName` in `namespaceURI`, or nil.
    public func firstChild(named localName: String, namespaceURI: String?) -> SecureXMLElement? {
        children(named: localName, namespaceURI: namespaceURI).first
    }

    /// Whether the element has a `ds:Signature` child (an enveloped signature to verify).
    public var hasSignature: Bool {
        read { node in node.elementChildren.contains { $0.isElement("Signature", namespaceURI: XMLNamespace.xmlDSig) } }
    }

    /// Exclusive XML Canonicalization 1.0 (without comments) of the element and everything below it: the bytes a
    /// Reference to it with the exclusive C14N transform digests when it carries no signature.
    public func canonicalized() throws(XMLSecurityError) -> [UInt8] {
        let bytes = read { node in
            var output: UnsafeMutablePointer<xmlChar>?
            let count = warden_xml_c14n(node, &output)
            return takeBytes(output, count: count)
        }
        guard let bytes else { throw .canonicalizationFailed }
        return bytes
    }
}

/// Node pointers carried out of `DocumentStorage.withTree`: only dereferenced again inside it.
struct UncheckedNodes: @unchecked Sendable {
    let pointers: [NodePointer]
    init(_ pointers: [NodePointer]) { self.pointers = pointers }
}
