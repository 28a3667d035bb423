/// Namespace URIs WardenXMLSecurity and its callers name elements by.
public enum XMLNamespace {
    /// XML-DSig 1.1 §3 (`ds:`).
    public static let xmlDSig = "http://www.w3.org/2000/09/xmldsig#"
    /// Exclusive XML Canonicalization 1.0 §3 (`ec:InclusiveNamespaces`).
    public static let exclusiveC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    /// SAML Core §2 (`saml:`), the assertion namespace.
    public static let samlAssertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    /// SAML Core §3 (`samlp:`), the protocol namespace.
    public static let samlProtocol = "urn:oasis:names:tc:SAML:2.0:protocol"
}

/// A `SignatureMethod` algorithm (XML-DSig 1.1 §6.4, RFC 9231 §2.3).
public struct XMLSignatureAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 9231 §2.3.2): what Warden signs with an RSA key.
    public static let rsaSHA256 = XMLSignatureAlgorithm(rawValue: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    public static let rsaSHA384 = XMLSignatureAlgorithm(rawValue: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384")
    public static let rsaSHA512 = XMLSignatureAlgorithm(rawValue: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512")
    /// ECDSA with SHA-256 (RFC 9231 §2.3.6): what Warden signs with an EC key.
    public static let ecdsaSHA256 = XMLSignatureAlgorithm(
        rawValue: "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256")
    /// RSA with SHA-1 (XML-DSig 1.1 §6.4.2): refused unless `XMLSignaturePolicy.allowsSHA1` (SPEC §16 refuses it).
    public static let rsaSHA1 = XMLSignatureAlgorithm(rawValue: "http://www.w3.org/2000/09/xmldsig#rsa-sha1")
}

/// A `DigestMethod` algorithm (XML-DSig 1.1 §6.2, RFC 9231 §2.1).
public struct XMLDigestAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// SHA-256 (XML-DSig 1.1 §6.2.2): what Warden digests with.
    public static let sha256 = XMLDigestAlgorithm(rawValue: "http://www.w3.org/2001/04/xmlenc#sha256")
    public static let sha384 = XMLDigestAlgorithm(rawValue: "http://www.w3.org/2001/04/xmldsig-more#sha384")
    public static let sha512 = XMLDigestAlgorithm(rawValue: "http://www.w3.org/2001/04/xmlenc#sha512")
    /// SHA-1 (XML-DSig 1.1 §6.2.1): refused unless `XMLSignaturePolicy.allowsSHA1`.
    public static let sha1 = XMLDigestAlgorithm(rawValue: "http://www.w3.org/2000/09/xmldsig#sha1")
}

/// The `Transform` and `CanonicalizationMethod` algorithms a signature may use.
enum XMLTransformAlgorithm {
    /// XML-DSig 1.1 §6.6.4.
    static let envelopedSignature = "http://www.w3.org/2000/09/xmldsig#enveloped-signature"
    /// Exclusive XML Canonicalization 1.0 §4 (without comments).
    static let exclusiveC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
}

/// What a verification accepts beyond the fixed rules (one enveloped Signature, one Reference to the element,
/// enveloped-signature and exclusive C14N only).
public struct XMLSignaturePolicy: Hashable, Sendable {
    /// Accept RSA-SHA1 signatures and SHA-1 digests. Off by default: SPEC §16 refuses SHA-1 as signature and as
    /// digest method; only a connection that must talk to an old IdP turns it on.
    public var allowsSHA1: Bool

    public init(allowsSHA1: Bool = false) {
        self.allowsSHA1 = allowsSHA1
    }

    var signatureAlgorithms: Set<XMLSignatureAlgorithm> {
        var algorithms: Set<XMLSignatureAlgorithm> = [.rsaSHA256, .rsaSHA384, .rsaSHA512, .ecdsaSHA256]
        if allowsSHA1 { algorithms.insert(.rsaSHA1) }
        return algorithms
    }

    var digestAlgorithms: Set<XMLDigestAlgorithm> {
        var algorithms: Set<XMLDigestAlgorithm> = [.sha256, .sha384, .sha512]
        if allowsSHA1 { algorithms.insert(.sha1) }
        return algorithms
    }
}
