public import struct Foundation.Date

/// A signing key as stored: the private key in PKCS#8 PEM (or raw for EdDSA), with its lifecycle (SPEC §2).
public struct SigningKeyRecord: Sendable, Equatable {
    public var kid: String
    public var alg: SigningAlgorithm
    /// The private key: PEM for RSA and EC, base64 raw representation for Ed25519.
    public var privateKey: String
    public var current: Bool
    public var createdAt: Date
    public var currentSince: Date?
    public var revokedAt: Date?

    public init(
        kid: String, alg: SigningAlgorithm, privateKey: String, current: Bool, createdAt: Date,
        currentSince: Date?, revokedAt: Date?
    ) {
        self.kid = kid
        self.alg = alg
        self.privateKey = privateKey
        self.current = current
        self.createdAt = createdAt
        self.currentSince = currentSince
        self.revokedAt = revokedAt
    }

    /// A key that was current once and is neither current nor revoked: still published.
    public var isPrevious: Bool { !current && revokedAt == nil }
}
