import Foundation

/// Polls a CIBA request at the token endpoint until the user decides (CIBA Core §7.3, §10.1, §11; SPEC §6.2).
///
/// Each step first waits the current interval — counted from the previous answer, so no two polls reach the
/// server closer than the interval — then polls once and yields ``CIBAPollEvent/pending(remaining:)``,
/// ``CIBAPollEvent/slowDown(interval:)`` or, finally, ``CIBAPollEvent/approved(_:)``. On `slow_down` the
/// interval grows by 5 seconds (CIBA Core §11), or to the server's `interval` if that is longer, and stays
/// there. The sequence throws ``WardenClientError`` on `access_denied`, `expired_token` or any other error;
/// when the next poll would come after the request's expiry it throws `expired_token` (no status) without
/// polling. Cancelling the iterating task ends the wait at once with `CancellationError`, without a further
/// request.
///
/// ```swift
/// for try await event in client.poll(started) {
///     switch event {
///     case .pending(let remaining): print("waiting, \(remaining) left")
///     case .slowDown(let interval): print("polling every \(interval)")
///     case .approved(let tokens): use(tokens)
///     }
/// }
/// ```
public struct CIBAPoll: AsyncSequence, Sendable {
    public typealias Element = CIBAPollEvent

    /// What CIBA Core §11 adds to the interval on `slow_down`.
    public static let slowDownIncrement: Duration = .seconds(5)

    let client: WardenClient
    let authentication: BackchannelAuthentication

    public func makeAsyncIterator() -> Iterator {
        Iterator(
            client: client, authentication: authentication, interval: .seconds(Swift.max(authentication.interval, 1)),
            previous: ContinuousClock.now)
    }

    /// Polls once per ``next()``.
    public struct Iterator: AsyncIteratorProtocol {
        let client: WardenClient
        let authentication: BackchannelAuthentication
        /// The current minimum gap between polls.
        var interval: Duration
        /// When the previous answer (or the request's start) arrived.
        var previous: ContinuousClock.Instant
        var finished = false

        /// Waits, polls, and returns what the server said; `nil` after the approval.
        public mutating func next() async throws -> CIBAPollEvent? {
            guard !finished else { return nil }
            let due = previous.advanced(by: interval)
            guard due < authentication.expiresAt else {
                finished = true
                throw WardenClientError(
                    error: "expired_token", errorDescription: "the request expired before the user approved it")
            }
            do {
                try await Task.sleep(until: due, clock: .continuous)
                let response = try await client.postForm(
                    client.configuration.metadata.tokenEndpoint,
                    [("grant_type", "urn:openid:params:grant-type:ciba"), ("auth_req_id", authentication.authReqID)])
                previous = ContinuousClock.now
                return try await event(for: response)
            } catch {
                finished = true
                throw error
            }
        }

        private mutating func event(for response: HTTPResponse) async throws -> CIBAPollEvent {
            if response.status == 200 {
                finished = true
                return .approved(try await client.validatedTokens(response, nonce: nil))
            }
            let body = OAuthErrorBody.decode(response)
            switch body?.error {
            case "authorization_pending":
                return .pending(remaining: authentication.expiresAt - previous)
            case "slow_down":
                interval = Swift.max(interval + CIBAPoll.slowDownIncrement, .seconds(body?.interval ?? 0))
                return .slowDown(interval: interval)
            default:
                throw OAuthErrorBody.error(in: response)
            }
        }
    }
}
