import WardenCore
import WardenWire

/// The passkey settings of the database connection (SPEC §17 "Policy"):
/// `options.authentication_methods.passkey.enabled` and `options.passkey_options`.
struct PasskeyPolicy: Sendable, Equatable {
    /// Whether passkeys are on (default false).
    var enabled: Bool
    /// How the login page asks (`both`, `autofill` or `button`).
    var challengeUI: ChallengeUI
    /// Whether a password login offers "Create a passkey" afterwards (default true).
    var progressiveEnrollment: Bool
    /// Whether a passkey may be added on the device in use (default true).
    var localEnrollment: Bool

    /// A user has at most this many passkeys (SPEC §17).
    static let limitPerUser = 20

    /// `passkey_options.challenge_ui`.
    enum ChallengeUI: String, Sendable, CaseIterable {
        case both, autofill, button
    }

    /// The policy `options` (the database connection's) say; absent or mistyped members take their defaults.
    init(options: [String: JSONValue]) {
        enabled = options["authentication_methods"]?["passkey"]?["enabled"] == .bool(true)
        let passkeyOptions = options["passkey_options"]
        challengeUI = passkeyOptions?["challenge_ui"]?.stringValue.flatMap(ChallengeUI.init(rawValue:)) ?? .both
        progressiveEnrollment = passkeyOptions?["progressive_enrollment_enabled"] != .bool(false)
        localEnrollment = passkeyOptions?["local_enrollment_enabled"] != .bool(false)
    }

    /// The refusal of every passkey endpoint while passkeys are off (SPEC §17).
    static let disabled = OAuthError(.accessDenied, "Passkeys are not enabled", status: 403)
}
