/// A started CIBA request (CIBA Core §7.3, SPEC §6.1): poll it with ``WardenClient/poll(_:)`` or
/// ``WardenClient/waitForApproval(_:)``.
public struct BackchannelAuthentication: Sendable {
    /// The request's handle at the token endpoint.
    public let authReqID: String
    /// Seconds the request stays open, counted from ``expiresAt`` minus this.
    public let expiresIn: Int
    /// The minimum number of seconds between polls (5 at Warden).
    public let interval: Int
    /// The binding message sent, to show beside the waiting indicator.
    public let bindingMessage: String?
    /// When the request expires, on this process's continuous clock.
    public let expiresAt: ContinuousClock.Instant

    /// Creates a started request; `expiresAt` defaults to `expiresIn` seconds from now.
    public init(
        authReqID: String, expiresIn: Int, interval: Int = 5, bindingMessage: String? = nil,
        expiresAt: ContinuousClock.Instant? = nil
    ) {
        self.authReqID = authReqID
        self.expiresIn = expiresIn
        self.interval = interval
        self.bindingMessage = bindingMessage
        self.expiresAt = expiresAt ?? ContinuousClock.now.advanced(by: .seconds(expiresIn))
    }
}
