import Crypto

public import struct Foundation.Date

/// Time-based one-time passwords (RFC 6238) over HMAC (RFC 4226 §5.3 dynamic truncation): the `otp` factor of
/// SPEC §12, computed alike by the server that verifies a code and by the authenticator SDK that shows one. SPEC
/// §7.1 fixes the parameters Warden issues (`algorithm=sha1&digits=6&period=30`); the algorithm (RFC 6238 §1.2:
/// HMAC-SHA-1, HMAC-SHA-256 or HMAC-SHA-512), `digits` and `period` stay parameters so that an authenticator can
/// hold what another issuer hands out, and so that the RFC 6238 Appendix B vectors (8 digits) check the same code.
public struct TOTP: Sendable {
    /// The HMAC hash function of the codes (the `otpauth://` `algorithm` parameter, the §7.1 `totp.algorithm`):
    /// an open set of lowercased names, of which ``sha1``, ``sha256`` and ``sha512`` can compute codes.
    public struct Algorithm: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The lowercased name, e.g. `"sha1"`.
        public let rawValue: String
        /// Creates an algorithm from its name, in any case (`SHA1` and `sha1` are one algorithm).
        public init(rawValue: String) { self.rawValue = rawValue.lowercased() }
        /// HMAC-SHA-1 (RFC 6238 §1.2, RFC 4226), what Warden issues (SPEC §7.1).
        public static let sha1 = Algorithm(rawValue: "sha1")
        /// HMAC-SHA-256 (RFC 6238 §1.2).
        public static let sha256 = Algorithm(rawValue: "sha256")
        /// HMAC-SHA-512 (RFC 6238 §1.2).
        public static let sha512 = Algorithm(rawValue: "sha512")
        public var description: String { rawValue }
    }

    /// Digits of the codes Warden issues (SPEC §7.1 `digits=6`).
    public static let standardDigits = 6
    /// Seconds per time step (SPEC §7.1 `period=30`).
    public static let standardPeriod: Int64 = 30

    private let key: SymmetricKey
    /// The HMAC hash function.
    public let algorithm: Algorithm
    /// How many decimal digits a code has (RFC 4226 §5.3: at least 6).
    public let digits: Int
    /// Seconds per time step (RFC 6238 §4.1 `X`), counted from the Unix epoch (`T0 = 0`).
    public let period: Int64

    /// An HMAC-SHA-1 generator for the raw shared `secret`; the parameters must be valid (6 to 9 digits, a
    /// positive period).
    public init(secret: some Sequence<UInt8>, digits: Int = standardDigits, period: Int64 = standardPeriod) {
        guard let totp = Self(secret: secret, algorithm: .sha1, digits: digits, period: period) else {
            preconditionFailure("RFC 4226 §5.3: 6 to 9 digits; a positive period")
        }
        self = totp
    }

    /// A generator for the raw shared `secret`, or `nil` when `algorithm` is none of ``Algorithm/sha1``,
    /// ``Algorithm/sha256``, ``Algorithm/sha512``, `digits` is outside 6…9 (RFC 4226 §5.3) or `period` is not
    /// positive: parameters that came over the wire are checked here, not trusted.
    public init?(secret: some Sequence<UInt8>, algorithm: Algorithm, digits: Int, period: Int64) {
        guard [.sha1, .sha256, .sha512].contains(algorithm), (6...9).contains(digits), period > 0 else { return nil }
        self.key = SymmetricKey(data: Array(secret))
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    /// A generator for a Base32 secret as enrolment hands it out (SPEC §7.1 `totp.secret`), or `nil` when the
    /// text is not Base32 or holds no byte, or the parameters are not valid (see
    /// ``init(secret:algorithm:digits:period:)``).
    public init?(
        base32Secret: String, algorithm: Algorithm = .sha1, digits: Int = standardDigits,
        period: Int64 = standardPeriod
    ) {
        guard let secret = Base32.decode(base32Secret), !secret.isEmpty else { return nil }
        self.init(secret: secret, algorithm: algorithm, digits: digits, period: period)
    }

    /// The time step of `date` (RFC 6238 §4.2 `T = floor((now - T0) / X)`).
    public func timeStep(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The seconds left before the code of `date` changes.
    public func secondsRemaining(at date: Date) -> Int {
        Int(Double(period) - date.timeIntervalSince1970.truncatingRemainder(dividingBy: Double(period)).rounded(.down))
    }

    /// The code of time step `step`, zero-padded to ``digits`` (RFC 4226 §5.3–5.4).
    public func code(step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac: [UInt8]
        switch algorithm {
        case .sha256: mac = Array(HMAC<SHA256>.authenticationCode(for: counter, using: key))
        case .sha512: mac = Array(HMAC<SHA512>.authenticationCode(for: counter, using: key))
        default:  // .sha1, the only other algorithm the initialisers admit
            mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: key))
        }
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let modulus = (0..<digits).reduce(UInt32(1)) { value, _ in value * 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The code of `date`.
    public func code(at date: Date) -> String {
        code(step: timeStep(at: date))
    }

    /// The time steps among `steps` whose code is `candidate`, compared in constant time per step; highest first.
    /// SPEC §12 accepts the step of `now` and one on either side (RFC 6238 §5.2 transmission delay); which step
    /// was used is what replay protection records.
    public func matchingSteps(of candidate: String, in steps: ClosedRange<Int64>) -> [Int64] {
        guard candidate.utf8.count == digits else { return [] }
        return steps.reversed().filter { SecretHash.constantTimeEquals(code(step: $0), candidate) }
    }
}
