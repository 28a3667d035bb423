public import WardenWire

/// A second factor of the hosted login (SPEC §12 "Factors"), by its Management API name
/// (`PUT /api/v2/guardian/factors/{name}`): an open set of wire values, so that an unknown name is represented
/// and refused by validation, not lost by decoding.
public struct MFAFactor: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An enrolled authenticator device answering a login transaction (SPEC §7).
    public static let pushNotification: MFAFactor = "push-notification"
    /// A RFC 6238 code from an enrolment's TOTP secret.
    public static let otp: MFAFactor = "otp"
    /// The user's single-use recovery code.
    public static let recoveryCode: MFAFactor = "recovery-code"
    /// A security key: a roaming WebAuthn authenticator (`authenticatorAttachment: "cross-platform"`, SPEC §17).
    public static let webAuthnRoaming: MFAFactor = "webauthn-roaming"
    /// The device's own WebAuthn authenticator (`authenticatorAttachment: "platform"`, SPEC §17).
    public static let webAuthnPlatform: MFAFactor = "webauthn-platform"

    /// The factors Warden offers, in the order `GET /api/v2/guardian/factors` lists them.
    public static let all: [MFAFactor] = [.pushNotification, .otp, .recoveryCode, .webAuthnRoaming, .webAuthnPlatform]
    /// The WebAuthn factors, which have settings (`GET|PUT /api/v2/guardian/factors/{name}/settings`).
    public static let webAuthn: [MFAFactor] = [.webAuthnRoaming, .webAuthnPlatform]
}

/// The tenant's MFA policy (SPEC §12, `GET|PUT /api/v2/guardian/policies`): the stored list is `[]` (MFA only when
/// a request or a rule asks for it), `["all-applications"]` or `["confidence-score"]`.
public struct MFAPolicy: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Every login asks for a second factor.
    public static let allApplications: MFAPolicy = "all-applications"
    /// A low-confidence login asks for a second factor (``MFARequirement``).
    public static let confidenceScore: MFAPolicy = "confidence-score"

    /// The policies a tenant may set.
    public static let all: [MFAPolicy] = [.allApplications, .confidenceScore]
}

/// An authentication method reference (RFC 8176 §2) as ID and access tokens carry it in `amr` and the SSO session
/// remembers it (SPEC §12 "Tokens": `["pwd"]`, `["pwd","mfa"]`).
public struct AuthenticationMethod: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A password (RFC 8176 `pwd`).
    public static let password: AuthenticationMethod = "pwd"
    /// A second factor was done (RFC 8176 `mfa`).
    public static let multiFactor: AuthenticationMethod = "mfa"
    /// A phishing-resistant key, such as a passkey (RFC 8176 `phr`).
    public static let phishingResistant: AuthenticationMethod = "phr"

    /// The methods stored as text, separated by spaces (the sessions' `amr` column).
    public static func list(_ text: String) -> [AuthenticationMethod] {
        text.split(separator: " ").map { AuthenticationMethod(rawValue: String($0)) }
    }

    /// `methods` as ``list(_:)`` reads them.
    public static func text(_ methods: [AuthenticationMethod]) -> String {
        methods.map(\.rawValue).joined(separator: " ")
    }

    /// The `amr` and `acr` claims of tokens issued after a login that did `methods` (SPEC §12 "Tokens"): `amr` when
    /// any method is known, `acr` ``MFARequirement/multiFactorACR`` when a second factor was done.
    public static func claims(_ methods: [AuthenticationMethod]) -> [(String, JSONValue)] {
        guard !methods.isEmpty else { return [] }
        var claims: [(String, JSONValue)] = [("amr", .array(methods.map { .string($0.rawValue) }))]
        if methods.contains(.multiFactor) { claims.append(("acr", .string(MFARequirement.multiFactorACR))) }
        return claims
    }
}
