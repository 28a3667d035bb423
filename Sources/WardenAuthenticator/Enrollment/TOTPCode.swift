public import Foundation
public import WardenWire

/// The one-time code an enrollment shows at a moment (RFC 6238 TOTP; the `otp` factor of SPEC §12), with how long
/// it stays current. The server accepts it within one time step either side (SPEC §12), but an app should show
/// ``secondsRemaining`` so the user types it in time.
public struct TOTPCode: Sendable, Hashable {
    /// The code, ``TOTPParameters/digits`` decimal digits with leading zeros, e.g. `"094287"`.
    public var code: String
    /// Whole seconds until the next code (1 … ``TOTPParameters/period``).
    public var secondsRemaining: Int
    /// When the next code takes over: the end of this time step (RFC 6238 §4.2).
    public var validUntil: Date

    /// Creates a code.
    public init(code: String, secondsRemaining: Int, validUntil: Date) {
        self.code = code
        self.secondsRemaining = secondsRemaining
        self.validUntil = validUntil
    }
}

extension TOTPParameters {
    /// The code of `date` (RFC 6238 §4.2: `T = floor(unix time / period)`, HMAC with ``algorithm``, RFC 4226 §5.3
    /// truncation to ``digits``).
    ///
    /// ```swift
    /// if let totp = enrollment.totp {
    ///     let current = try totp.code()
    ///     label.text = "\(current.code)  (\(current.secondsRemaining) s left)"
    /// }
    /// ```
    ///
    /// - Throws: ``AuthenticatorError`` of kind ``AuthenticatorError/Kind/invalidTOTP`` when ``secret`` is not
    ///   Base32, ``algorithm`` is not `sha1`, `sha256` or `sha512`, ``digits`` is outside 6…9 or ``period`` is
    ///   not positive.
    public func code(at date: Date = Date()) throws -> TOTPCode {
        guard
            let totp = TOTP(
                base32Secret: secret, algorithm: algorithm, digits: digits, period: Int64(period))
        else {
            throw AuthenticatorError(
                kind: .invalidTOTP,
                detail: "cannot compute codes for algorithm \(algorithm), \(digits) digits, period \(period) s"
                    + " with this secret")
        }
        let step = totp.timeStep(at: date)
        return TOTPCode(
            code: totp.code(step: step), secondsRemaining: totp.secondsRemaining(at: date),
            validUntil: Date(timeIntervalSince1970: Double((step + 1) * totp.period)))
    }
}

/// The HMAC algorithm of an enrollment's codes (SPEC §7.1 `totp.algorithm`, the `otpauth://` `algorithm`): the
/// wire type shared with the server (`WardenWire.TOTP.Algorithm`), an open set of names of which `.sha1`,
/// `.sha256` and `.sha512` compute codes (RFC 6238 §1.2). The alias lets an app name it with
/// `import WardenAuthenticator` alone.
public typealias TOTPAlgorithm = WardenWire.TOTP.Algorithm
