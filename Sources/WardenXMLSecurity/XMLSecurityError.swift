/// Why WardenXMLSecurity refused a document, a signature or a key: one case per check.
///
/// Safe to log; none carries key material. Callers map every case of a received message to their protocol's
/// refusal (SPEC §16: a SAML response that fails any check is `access_denied`).
public enum XMLSecurityError: Error, Hashable, Sendable {
    // MARK: Parsing (SPEC §16: DTDs and external entities refused, messages ≤ 256 KB)

    /// The input is longer than `XMLParseLimits.maxBytes`.
    case tooLarge(limit: Int)
    /// The bytes are not UTF-8, or the XML declaration names another encoding.
    case notUTF8
    /// The document has a document type declaration (`<!DOCTYPE …>`), in any form: no DTD, internal subset,
    /// entity declaration or external entity is ever processed (XXE, "billion laughs").
    case doctypeForbidden
    /// Elements nest deeper than `XMLParseLimits.maxDepth`.
    case tooDeep(limit: Int)
    /// Not a well-formed XML document (XML 1.0 §2.1), or empty.
    case malformed
    /// Two elements carry the same ID (an `ID` attribute, or an `xml:id`): a signature-wrapping pattern, refused
    /// for the whole document.
    case duplicateID(String)

    // MARK: Finding and signing elements

    /// No element has this `ID`.
    case elementNotFound(id: String)
    /// The element to sign or verify has no `ID` attribute.
    case elementHasNoID
    /// The element's `ID` is not an NCName (XML Schema `xs:ID`), so `#ID` would not be a plain same-document
    /// reference (XML-DSig 1.1 §4.4.3.3).
    case invalidID(String)
    /// The element to sign already has a `ds:Signature` child.
    case alreadySigned

    // MARK: The Signature's structure (XML-DSig 1.1 §4, SAML Core §5.4)

    /// The element has no `ds:Signature` child.
    case signatureMissing
    /// The element has more than one `ds:Signature` child.
    case multipleSignatures
    /// The Signature does not have the shape of XML-DSig 1.1 §4.1–§4.4.3 (the named part is missing or
    /// unexpected).
    case malformedSignature(String)
    /// `SignedInfo/CanonicalizationMethod` is not exclusive C14N without comments (SAML Core §5.4.3).
    case canonicalizationNotAllowed(String)
    /// `SignatureMethod` is not one the policy allows.
    case signatureAlgorithmNotAllowed(String)
    /// `DigestMethod` is not one the policy allows.
    case digestAlgorithmNotAllowed(String)
    /// `SignedInfo` has this many `Reference`s instead of exactly one (SAML Core §5.4.2).
    case referenceCount(Int)
    /// The `Reference` does not point at the element that carries the Signature (SAML Core §5.4.2).
    case referenceURIMismatch(expected: String, found: String?)
    /// The `Reference`'s transforms are not enveloped-signature, optionally followed by exclusive C14N (SAML Core
    /// §5.4.4); the list is the algorithms found.
    case transformsNotAllowed([String])

    // MARK: Cryptography

    /// The digest or the signature value does not match with any of the given certificates' keys.
    case signatureInvalid
    /// The bytes that were signed are not the element itself (its name or ID differ after re-parsing).
    case signedContentMismatch
    /// The certificate could not be read (PEM or DER X.509).
    case invalidCertificate
    /// The private key could not be read (PEM, PKCS#8 or traditional), or it is not a private key.
    case invalidPrivateKey
    /// The key is neither RSA nor EC.
    case unsupportedKey
    /// The private key and the certificate do not belong together (a test signature did not verify).
    case keyDoesNotMatchCertificate
    /// Exclusive canonicalization failed (for example a relative namespace URI).
    case canonicalizationFailed
    /// libxml2 or xmlsec failed for a reason outside the input (initialization, memory).
    case libraryFailure(String)
}
