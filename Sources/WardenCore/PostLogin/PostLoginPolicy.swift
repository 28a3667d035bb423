/// A Swift hook that may deny a login (SPEC §8 "Embedders can also register Swift `PostLoginPolicy` values"):
/// it runs after the enabled post-login rules, on every login (password, SSO session, session transfer).
public protocol PostLoginPolicy: Sendable {
    /// `.deny(reason:)` ends the login with an `access_denied` error redirect carrying the reason.
    func evaluate(_ event: LoginEvent) async throws -> PostLoginDecision
}

/// The outcome of a post-login check.
public enum PostLoginDecision: Sendable, Equatable {
    case allow
    /// The login is refused; `reason` becomes the `error_description` (SPEC §8 `deny_reason`).
    case deny(reason: String)
    /// The login may go on after a second factor (SPEC §12: a `require_mfa` rule matched, no rule denied).
    case requireMFA
}
