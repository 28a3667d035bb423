/// Whether a login needs a second factor (SPEC §12 "When MFA is required"), decided in this one place from what
/// the login flow knows after the first factor and the post-login rules. Pure: the flow gathers the facts (the
/// tenant's policy and factors, the request, the rules' outcome, the session, the browser's `warden_device`
/// cookie, the network and the user's recent logins) and asks ``decision``.
///
/// MFA is asked when any reason holds and at least one factor a user can enrol with (`push-notification` or
/// `otp`) is enabled:
/// - the policy is `all-applications`;
/// - the policy is `confidence-score` and the login is low-confidence: the user's first login, or a browser the
///   user has not completed MFA in **and** a network absent from their last ``RecentLogin/kept`` successful logins;
/// - `acr_values` contains ``multiFactorACR``;
/// - a `require_mfa` post-login rule matched.
///
/// An SSO session that did MFA answers for it (no reason asks again) unless `prompt=login` or `max_age` forced a
/// new first factor. With `prompt=none`, MFA that would be asked is `interaction_required`.
public struct MFARequirement: Sendable, Equatable {
    /// The `acr` of a login with a second factor (OpenID PAPE), which a client asks for in `acr_values`.
    public static let multiFactorACR = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"

    /// How the user proved who they are before the second factor.
    public enum FirstFactor: Sendable, Equatable {
        /// Credentials presented in this login: a password or a session transfer token (SPEC §8).
        case credentials
        /// An existing SSO session, with the methods it remembers (its `amr`).
        case session(amr: [AuthenticationMethod])
        /// A user-verified passkey (SPEC §17): phishing-resistant, and a second factor by itself.
        case passkey
    }

    /// The tenant's stored policy (`[]` by default).
    public var policies: [MFAPolicy]
    /// The factors the tenant enabled.
    public var enabledFactors: Set<MFAFactor>
    /// The request's `acr_values`, split on spaces.
    public var acrValues: [String]
    /// Whether an enabled `require_mfa` post-login rule matched the login.
    public var ruleRequiresMFA: Bool
    public var firstFactor: FirstFactor
    /// `prompt=login`, or an SSO session older than `max_age`: a new first factor was asked for.
    public var reauthenticationForced: Bool
    /// `prompt=none`: no page may be shown.
    public var promptNone: Bool
    /// The network of the login, when its address is known.
    public var network: LoginNetwork?
    /// SHA-256 (hex) of the browser's `warden_device` cookie, when it sent one.
    public var deviceHash: String?
    /// The user's recent successful logins (only the newest ``RecentLogin/kept`` count).
    public var recentLogins: [RecentLogin]

    public init(
        policies: [MFAPolicy], enabledFactors: Set<MFAFactor>, acrValues: [String] = [], ruleRequiresMFA: Bool = false,
        firstFactor: FirstFactor, reauthenticationForced: Bool = false, promptNone: Bool = false,
        network: LoginNetwork?, deviceHash: String?, recentLogins: [RecentLogin]
    ) {
        self.policies = policies
        self.enabledFactors = enabledFactors
        self.acrValues = acrValues
        self.ruleRequiresMFA = ruleRequiresMFA
        self.firstFactor = firstFactor
        self.reauthenticationForced = reauthenticationForced
        self.promptNone = promptNone
        self.network = network
        self.deviceHash = deviceHash
        self.recentLogins = recentLogins
    }

    /// Why MFA is asked (logged with `mfar`, SPEC §12 "Logs").
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case allApplications = "all-applications"
        case lowConfidence = "confidence-score"
        case acrValues = "acr_values"
        case rule = "require_mfa"
    }

    /// The reasons that hold for this login, whatever the session and the factors.
    public var reasons: Set<Reason> {
        var reasons: Set<Reason> = []
        if policies.contains(.allApplications) { reasons.insert(.allApplications) }
        if policies.contains(.confidenceScore), isLowConfidence { reasons.insert(.lowConfidence) }
        if acrValues.contains(Self.multiFactorACR) { reasons.insert(.acrValues) }
        if ruleRequiresMFA { reasons.insert(.rule) }
        return reasons
    }

    /// The user's first login, or an unknown browser on a new network (SPEC §12).
    public var isLowConfidence: Bool {
        let recent = recentLogins.sorted { $0.at > $1.at }.prefix(RecentLogin.kept)
        guard !recent.isEmpty else { return true }
        let knownBrowser = deviceHash.map { hash in recent.contains { $0.didMFA && $0.deviceHash == hash } } ?? false
        let knownNetwork = network.map { network in recent.contains { $0.network == network } } ?? false
        return !knownBrowser && !knownNetwork
    }

    /// Whether the first factor counts as the second too: a passkey (SPEC §17), or an SSO session that already
    /// did a second factor and may vouch for it.
    public var firstFactorCountsAsMFA: Bool {
        if firstFactor == .passkey { return true }
        guard case .session(let amr) = firstFactor, !reauthenticationForced else { return false }
        return amr.contains(.multiFactor)
    }

    /// Whether the tenant enabled a factor a user can enrol with (a recovery code alone is not one).
    public var hasEnrollableFactor: Bool {
        !enabledFactors.isDisjoint(with: [.pushNotification, .otp, .webAuthnRoaming, .webAuthnPlatform])
    }

    /// What the login flow does next.
    public var decision: MFADecision {
        let reasons = reasons
        guard !reasons.isEmpty, hasEnrollableFactor, !firstFactorCountsAsMFA else { return .notRequired }
        return promptNone ? .interactionRequired(reasons) : .required(reasons)
    }
}

/// The outcome of ``MFARequirement/decision``.
public enum MFADecision: Sendable, Equatable {
    /// The login goes on.
    case notRequired
    /// A second factor page comes next (`mfar` logged with the reasons).
    case required(Set<MFARequirement.Reason>)
    /// `prompt=none`: the authorization request ends with `interaction_required` (OIDC Core §3.1.2.6).
    case interactionRequired(Set<MFARequirement.Reason>)
}
