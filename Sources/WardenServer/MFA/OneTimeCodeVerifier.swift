import WardenCore
import WardenWire

/// Checks a one-time code typed at sign-in (SPEC §12 `/u/mfa/otp`): RFC 6238 against the TOTP secret of each of the
/// user's enrolments (push devices and OTP-only authenticators), at the step of now and one on either side; the
/// store then settles it atomically (the replay of a used step, the lockout of ``OTPThrottle/standard``).
struct OneTimeCodeVerifier: Sendable {
    let devices: any DeviceStore
    let authenticators: any AuthenticatorStore
    let clock: any WardenClock
    let throttle: OTPThrottle

    init(
        devices: any DeviceStore, authenticators: any AuthenticatorStore, clock: any WardenClock,
        throttle: OTPThrottle = .standard
    ) {
        self.devices = devices
        self.authenticators = authenticators
        self.clock = clock
        self.throttle = throttle
    }

    /// Verifies `code` for `userID`. A code that is not six digits is a wrong code like any other.
    func verify(_ code: String, userID: String) async throws -> OTPAttemptResult {
        let now = clock.now()
        let secrets =
            try await devices.deviceEnrollments(userID: userID).map { ($0.id, $0.totpSecret) }
            + authenticators.otpAuthenticators(userID: userID).map { ($0.id, $0.secret) }
        var match: OTPMatch?
        for (id, secret) in secrets {
            guard let totp = TOTP(base32Secret: secret) else { continue }
            let step = totp.timeStep(at: now)
            if let matched = totp.matchingSteps(of: code, in: (step - 1)...(step + 1)).first,
                matched > match?.step ?? .min
            {
                match = OTPMatch(authenticatorID: id, step: matched)
            }
        }
        return try await authenticators.recordOTPAttempt(userID: userID, match: match, at: now, throttle: throttle)
    }
}
