import NIOSSL

/// TLS for Warden's outbound HTTPS clients (push services, Client ID Metadata Documents): the system's trust roots
/// plus, when the operator names one, a PEM file of extra roots — a private CA, or a local fake's in tests (SPEC
/// §1 `--apns-ca-file`, `--fcm-ca-file`; `--client-metadata-ca-file`). The file is read now, so a bad one fails at
/// start-up with the flag's name rather than at the first fetch.
enum OutboundTLS {
    /// A setting that cannot work, named by its flag.
    struct ConfigurationError: Error, CustomStringConvertible {
        var description: String
    }

    static func configuration(caFile: String?, flag: String) throws(ConfigurationError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            let certificates = try? NIOSSLCertificate.fromPEMFile(caFile)
            guard let certificates, !certificates.isEmpty else {
                throw ConfigurationError(description: "\(flag) \(caFile): no readable PEM certificate")
            }
            tls.additionalTrustRoots = [.certificates(certificates)]
        }
        return tls
    }
}
