import CXMLSecShim

/// A certificate whose public key alone may verify a signature: the pinned certificate of a SAML connection or
/// service provider (SPEC §16: "never a certificate from the message's own KeyInfo").
///
/// Only the key is used: the certificate's validity dates, issuer and extensions are the caller's policy (SAML
/// metadata pins certificates; it does not build chains).
public struct XMLSignatureCertificate: Sendable {
    let key: KeyStorage

    /// Reads a PEM certificate (`-----BEGIN CERTIFICATE-----`).
    public init(pem: String) throws(XMLSecurityError) {
        try self.init(bytes: Array(pem.utf8), pem: true)
    }

    /// Reads a DER certificate.
    public init(der: [UInt8]) throws(XMLSecurityError) {
        try self.init(bytes: der, pem: false)
    }

    private init(bytes: [UInt8], pem: Bool) throws(XMLSecurityError) {
        try initializeLibraries()
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { throw .invalidCertificate }
        let loaded = bytes.withUnsafeBufferPointer {
            warden_xmlsec_key_from_certificate($0.baseAddress, Int32($0.count), pem ? 1 : 0)
        }
        guard let loaded else { throw .invalidCertificate }
        key = KeyStorage(loaded)
        guard key.kind != WARDEN_XMLSEC_KEY_OTHER else { throw .unsupportedKey }
    }
}

/// A private key and its certificate, for signing (`SecureXMLDocument.signing(elementWithID:as:)`).
public struct XMLSigningIdentity: Sendable {
    let key: KeyStorage
    /// The certificate, for verifying what this identity signed.
    public let certificate: XMLSignatureCertificate
    /// RSA-SHA256 for an RSA key, ECDSA-SHA256 for an EC key.
    public let signatureAlgorithm: XMLSignatureAlgorithm

    /// Reads a PEM private key (PKCS#8 or traditional, RSA or EC) and its PEM certificate, and checks that they
    /// belong together by signing and verifying a small document.
    public init(privateKeyPEM: String, certificatePEM: String) throws(XMLSecurityError) {
        try initializeLibraries()
        certificate = try XMLSignatureCertificate(pem: certificatePEM)
        let keyBytes = Array(privateKeyPEM.utf8)
        let certificateBytes = Array(certificatePEM.utf8)
        guard !keyBytes.isEmpty, keyBytes.count < Int(Int32.max) else { throw .invalidPrivateKey }
        let loaded = keyBytes.withUnsafeBufferPointer { key in
            certificateBytes.withUnsafeBufferPointer { certificate in
                warden_xmlsec_signing_key(
                    key.baseAddress, Int32(key.count), certificate.baseAddress, Int32(certificate.count))
            }
        }
        guard let loaded else { throw .invalidPrivateKey }
        key = KeyStorage(loaded)
        switch key.kind {
        case WARDEN_XMLSEC_KEY_RSA: signatureAlgorithm = .rsaSHA256
        case WARDEN_XMLSEC_KEY_EC: signatureAlgorithm = .ecdsaSHA256
        default: throw .unsupportedKey
        }
        let probe = try SecureXMLDocument(#"<Probe ID="_warden-key-check">key check</Probe>"#)
            .signing(elementWithID: "_warden-key-check", as: self)
        do {
            _ = try probe.root.verifySignature(trusting: certificate)
        } catch {
            throw .keyDoesNotMatchCertificate
        }
    }
}
