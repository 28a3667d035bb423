/// A COSE algorithm identifier (WebAuthn Level 3 §5.8.5, RFC 9053, the IANA "COSE Algorithms" registry): an open
/// set, so any value an authenticator sends is representable and the checks decide what is allowed.
public struct COSEAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// ECDSA with SHA-256 on P-256 (RFC 9053 §2.1).
    public static let es256 = COSEAlgorithm(rawValue: -7)
    /// EdDSA; with WebAuthn, Ed25519 (RFC 9053 §2.2, RFC 8032).
    public static let eddsa = COSEAlgorithm(rawValue: -8)
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8812 §2, RFC 8017 §8.2).
    public static let rs256 = COSEAlgorithm(rawValue: -257)

    /// The algorithms Warden verifies, in the order its challenges offer them (SPEC §17: −8, −7, −257).
    public static let supported: [COSEAlgorithm] = [.eddsa, .es256, .rs256]

    public var description: String { String(rawValue) }
}
