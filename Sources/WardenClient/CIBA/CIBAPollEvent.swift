/// What a CIBA poll found (CIBA Core §11, SPEC §6.2).
public enum CIBAPollEvent: Sendable {
    /// `authorization_pending`: the user has not answered; the request expires in `remaining`.
    case pending(remaining: Duration)
    /// `slow_down`: the poller now waits `interval` between polls.
    case slowDown(interval: Duration)
    /// The user approved: the tokens. The sequence ends.
    case approved(TokenResponse)
}
