import CXMLSec
import CXMLSecShim

/// An element whose enveloped signature verified, re-read from exactly the bytes that were signed.
///
/// `element` is the root of a new document parsed from the Reference's pre-digest bytes: the output of the
/// enveloped-signature and exclusive C14N transforms, which is what the digest covers and so what the signature
/// covers (XML-DSig 1.1 §3.2.1). Nothing else is in that document, so reading a value from it can only read signed
/// content: a wrapped copy elsewhere in the message, an evil sibling with another ID, a comment inside a value
/// (C14N drops comments, so the text reads whole) or anything outside the element cannot be reached through it.
/// This is SAML Core §5.4's "the element the signature covers", made the only thing callers can read.
public struct VerifiedXMLElement: Sendable {
    /// The signed element (without its `ds:Signature`), the root of a document of its own.
    public let element: SecureXMLElement
    /// The bytes that were digested (the exclusive C14N of the element without its Signature).
    public let signedBytes: [UInt8]
    public let signatureAlgorithm: XMLSignatureAlgorithm
    public let digestAlgorithm: XMLDigestAlgorithm
    /// The position, in the list given, of the certificate whose key verified the signature.
    public let certificateIndex: Int
}

extension SecureXMLElement {
    /// Verifies the element's enveloped signature with `certificate`'s key only. See
    /// `verifySignature(trusting:policy:)` for the list.
    public func verifySignature(
        trusting certificate: XMLSignatureCertificate, policy: XMLSignaturePolicy = XMLSignaturePolicy()
    ) throws(XMLSecurityError) -> VerifiedXMLElement {
        try verifySignature(trusting: [certificate], policy: policy)
    }

    /// Verifies the element's enveloped signature with the keys of `certificates` only (a connection's current
    /// and next certificate during a rollover) and returns the signed element, re-read from the signed bytes.
    ///
    /// In order, each failure named by its `XMLSecurityError`:
    /// 1. the element has an `ID` (an NCName) registered to it alone;
    /// 2. exactly one `ds:Signature` is a direct child of the element (enveloped, SAML Core §5.4.1);
    /// 3. its shape is XML-DSig 1.1 §4.1 and §4.4: `SignedInfo` (`CanonicalizationMethod` exclusive C14N
    ///    without comments, SAML Core §5.4.3; a `SignatureMethod` the policy allows) then `SignatureValue`;
    /// 4. exactly one `Reference` (SAML Core §5.4.2), whose `URI` is `#` + the element's `ID` (§4.4.3.1);
    /// 5. its transforms are enveloped-signature (§6.6.4), optionally followed by exclusive C14N with or without
    ///    `InclusiveNamespaces` (SAML Core §5.4.4) — nothing else (no XPath, XSLT, Base64, inclusive C14N);
    /// 6. its `DigestMethod` is one the policy allows (SHA-256/384/512; SHA-1 only when allowed);
    /// 7. xmlsec verifies digest and signature with a given certificate's key, never a key from `KeyInfo`
    ///    (SAML Core §5.4.5 leaves KeyInfo to the relying party: Warden pins), with the same lists of transforms
    ///    and algorithms enabled, same-document references only and manifests ignored;
    /// 8. the signed bytes re-parse to the element itself (same name and ID, its Signature gone).
    public func verifySignature(
        trusting certificates: [XMLSignatureCertificate], policy: XMLSignaturePolicy = XMLSignaturePolicy()
    ) throws(XMLSecurityError) -> VerifiedXMLElement {
        guard !certificates.isEmpty else { throw .signatureInvalid }
        let verified = try storage.withTree { (document) throws(XMLSecurityError) -> SignedBytes in
            let id = try checkedID(in: document)
            let signatures = node.elementChildren.filter {
                $0.isElement("Signature", namespaceURI: XMLNamespace.xmlDSig)
            }
            guard let signature = signatures.first else { throw .signatureMissing }
            guard signatures.count == 1 else { throw .multipleSignatures }
            let structure = try SignatureStructure(signature: signature, expectedURI: "#" + id, policy: policy)
            for (index, certificate) in certificates.enumerated() {
                guard let key = certificate.key.duplicate() else { throw .libraryFailure("duplicating a key") }
                var output: UnsafeMutablePointer<xmlChar>?
                var count: Int32 = 0
                let result = warden_xmlsec_verify(signature, key, policy.allowsSHA1 ? 1 : 0, &output, &count)
                switch result {
                case WARDEN_XMLSEC_VALID:
                    guard let bytes = takeBytes(output, count: count) else {
                        throw .libraryFailure("reading the signed bytes")
                    }
                    return SignedBytes(
                        bytes: bytes, structure: structure, certificateIndex: index, id: id,
                        localName: node.localName, namespaceURI: node.namespaceURI)
                case WARDEN_XMLSEC_INVALID, WARDEN_XMLSEC_REFUSED:
                    // Another certificate's key may match (REFUSED: this key does not fit the algorithm).
                    continue
                default:
                    throw .libraryFailure("verifying: \(String(cString: warden_xmlsec_last_error()))")
                }
            }
            throw .signatureInvalid
        }
        let limits = storage.limits
        let signed: SecureXMLDocument
        do {
            signed = try SecureXMLDocument(
                bytes: verified.bytes,
                limits: XMLParseLimits(
                    maxBytes: max(limits.maxBytes, verified.bytes.count), maxDepth: limits.maxDepth))
        } catch {
            throw .signedContentMismatch
        }
        let root = signed.root
        guard root.localName == verified.localName, root.namespaceURI == verified.namespaceURI,
            root.id == verified.id, !root.hasSignature
        else { throw .signedContentMismatch }
        return VerifiedXMLElement(
            element: root, signedBytes: verified.bytes, signatureAlgorithm: verified.structure.signatureAlgorithm,
            digestAlgorithm: verified.structure.digestAlgorithm, certificateIndex: verified.certificateIndex)
    }

    /// The element's `ID`, checked to be an NCName registered to this element alone. Inside `withTree`.
    private func checkedID(in document: DocPointer) throws(XMLSecurityError) -> String {
        guard let id = node.attribute("ID"), !id.isEmpty else { throw .elementHasNoID }
        guard xmlValidateNCName(id, 0) == 0 else { throw .invalidID(id) }
        guard lookUpElement(withID: id, in: document) == node else { throw .duplicateID(id) }
        return id
    }
}

/// What a successful xmlsec verification hands out of the locked tree.
private struct SignedBytes: Sendable {
    let bytes: [UInt8]
    let structure: SignatureStructure
    let certificateIndex: Int
    let id: String
    let localName: String
    let namespaceURI: String?
}

/// The checked shape of a `ds:Signature` (XML-DSig 1.1 §4), read before xmlsec sees it.
struct SignatureStructure: Sendable {
    let signatureAlgorithm: XMLSignatureAlgorithm
    let digestAlgorithm: XMLDigestAlgorithm

    /// Reads `signature` inside `DocumentStorage.withTree`.
    init(signature: NodePointer, expectedURI: String, policy: XMLSignaturePolicy) throws(XMLSecurityError) {
        // §4.1: Signature = SignedInfo, SignatureValue, KeyInfo?, Object*.
        let parts = signature.elementChildren
        guard let signedInfo = parts.first, signedInfo.isDSig("SignedInfo") else {
            throw .malformedSignature("SignedInfo")
        }
        guard parts.count >= 2, parts[1].isDSig("SignatureValue") else { throw .malformedSignature("SignatureValue") }
        for extra in parts.dropFirst(2) where !extra.isDSig("KeyInfo") && !extra.isDSig("Object") {
            throw .malformedSignature(extra.localName)
        }

        // §4.4: SignedInfo = CanonicalizationMethod, SignatureMethod, Reference+.
        let info = signedInfo.elementChildren
        guard let canonicalization = info.first, canonicalization.isDSig("CanonicalizationMethod") else {
            throw .malformedSignature("CanonicalizationMethod")
        }
        guard info.count >= 2, info[1].isDSig("SignatureMethod") else { throw .malformedSignature("SignatureMethod") }
        let c14n = canonicalization.attribute("Algorithm") ?? ""
        guard c14n == XMLTransformAlgorithm.exclusiveC14N else { throw .canonicalizationNotAllowed(c14n) }
        try Self.checkInclusiveNamespacesOnly(canonicalization)
        let signatureMethod = XMLSignatureAlgorithm(rawValue: info[1].attribute("Algorithm") ?? "")
        guard policy.signatureAlgorithms.contains(signatureMethod) else {
            throw .signatureAlgorithmNotAllowed(signatureMethod.rawValue)
        }
        // No HMACOutputLength or other parameters (§4.4.2): none of the allowed methods takes one.
        guard info[1].elementChildren.isEmpty else { throw .malformedSignature("SignatureMethod parameters") }
        let references = Array(info.dropFirst(2))
        for other in references where !other.isDSig("Reference") { throw .malformedSignature(other.localName) }
        guard references.count == 1, let reference = references.first else {
            throw .referenceCount(references.count)
        }

        // §4.4.3: Reference = Transforms?, DigestMethod, DigestValue; URI = "#" + the element's ID.
        let uri = reference.attribute("URI")
        guard uri == expectedURI else { throw .referenceURIMismatch(expected: expectedURI, found: uri) }
        var items = reference.elementChildren[...]
        var transformNodes: [NodePointer] = []
        if let first = items.first, first.isDSig("Transforms") {
            items = items.dropFirst()
            transformNodes = first.elementChildren
        }
        for transform in transformNodes where !transform.isDSig("Transform") {
            throw .malformedSignature(transform.localName)
        }
        let transforms = transformNodes.map { $0.attribute("Algorithm") ?? "" }
        let allowed = [
            [XMLTransformAlgorithm.envelopedSignature],
            [XMLTransformAlgorithm.envelopedSignature, XMLTransformAlgorithm.exclusiveC14N],
        ]
        guard allowed.contains(transforms) else { throw .transformsNotAllowed(transforms) }
        // Enveloped-signature takes no parameter (§6.6.4); exclusive C14N only InclusiveNamespaces.
        guard transformNodes[0].elementChildren.isEmpty else { throw .malformedSignature("Transform parameters") }
        if transformNodes.count == 2 { try Self.checkInclusiveNamespacesOnly(transformNodes[1]) }
        guard items.count == 2, let digestMethod = items.first, digestMethod.isDSig("DigestMethod"),
            items.last!.isDSig("DigestValue")
        else { throw .malformedSignature("DigestMethod, DigestValue") }
        let digest = XMLDigestAlgorithm(rawValue: digestMethod.attribute("Algorithm") ?? "")
        guard policy.digestAlgorithms.contains(digest) else { throw .digestAlgorithmNotAllowed(digest.rawValue) }

        signatureAlgorithm = signatureMethod
        digestAlgorithm = digest
    }

    /// Exclusive C14N takes one optional parameter, `ec:InclusiveNamespaces` (Exclusive XML Canonicalization 1.0
    /// §3); anything else under the method is refused.
    private static func checkInclusiveNamespacesOnly(_ method: NodePointer) throws(XMLSecurityError) {
        let parameters = method.elementChildren
        guard parameters.count <= 1 else { throw .malformedSignature("canonicalization parameters") }
        if let parameter = parameters.first,
            !parameter.isElement("InclusiveNamespaces", namespaceURI: XMLNamespace.exclusiveC14N)
        {
            throw .malformedSignature(parameter.localName)
        }
    }
}

extension UnsafeMutablePointer where Pointee == xmlNode {
    fileprivate func isDSig(_ localName: String) -> Bool {
        isElement(localName, namespaceURI: XMLNamespace.xmlDSig)
    }
}
