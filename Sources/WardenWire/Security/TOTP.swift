import Crypto
public import struct Foundation.Date

/// Time-based one-time passwords (RFC 6238) with HMAC-SHA-1 (RFC 4226 §5.3 dynamic truncation): the `otp`
/// factor of SPEC §12, computed alike by the server that verifies a code and by the authenticator SDK that shows
/// one. SPEC §7.1 fixes the parameters Warden issues (`algorithm=sha1&digits=6&period=30`); `digits` and
/// `period` stay parameters so that the RFC 6238 Appendix B vectors (8 digits) check the same code.
public struct TOTP: Sendable {
    /// Digits of the codes Warden issues (SPEC §7.1 `digits=6`).
    public static let standardDigits = 6
    /// Seconds per time step (SPEC §7.1 `period=30`).
    public static let standardPeriod: Int64 = 30

    private let key: SymmetricKey
    /// How many decimal digits a code has (RFC 4226 §5.3: at least 6).
    public let digits: Int
    /// Seconds per time step (RFC 6238 §4.1 `X`), counted from the Unix epoch (`T0 = 0`).
    public let period: Int64

    /// A generator for the raw shared `secret`.
    public init(secret: some Sequence<UInt8>, digits: Int = standardDigits, period: Int64 = standardPeriod) {
        precondition((6...9).contains(digits) && period > 0, "RFC 4226 §5.3: 6 to 9 digits; a positive period")
        self.key = SymmetricKey(data: Array(secret))
        self.digits = digits
        self.period = period
    }

    /// A generator for a Base32 secret as enrolment hands it out (SPEC §7.1 `totp.secret`), or `nil` when the
    /// text is not Base32 or holds no byte.
    public init?(base32Secret: String, digits: Int = standardDigits, period: Int64 = standardPeriod) {
        guard let secret = Base32.decode(base32Secret), !secret.isEmpty else { return nil }
        self.init(secret: secret, digits: digits, period: period)
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
        var counter = UInt64(bitPattern: step).bigEndian
        let mac = withUnsafeBytes(of: &counter) { HMAC<Insecure.SHA1>.authenticationCode(for: $0, using: key) }
        let binary = mac.withUnsafeBytes { bytes -> UInt32 in
            let offset = Int(bytes[bytes.count - 1] & 0x0f)
            return (UInt32(bytes[offset] & 0x7f) << 24) | (UInt32(bytes[offset + 1]) << 16)
                | (UInt32(bytes[offset + 2]) << 8) | UInt32(bytes[offset + 3])
        }
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
