import Foundation
import NIOHTTP1
import Synchronization

/// What the fakes accepted and refused, and the credentials they know, shared by every connection and read
/// back through the control port.
final class FakeRecord: Sendable {
    /// A notification a fake accepted.
    struct Received: Sendable {
        var provider: String
        var token: String
        var headers: [String: String]
        var body: Data
    }

    /// A request that failed a check.
    struct Rejected: Sendable {
        var provider: String
        var path: String
        var status: Int
        var reason: String
        var detail: String
    }

    private struct State {
        var received: [Received] = []
        var rejected: [Rejected] = []
        /// APNs provider tokens answered with `ExpiredProviderToken` from now on.
        var expiredProviderTokens: Set<String> = []
        var seenProviderTokens: Set<String> = []
        /// FCM access tokens issued, with their expiry.
        var accessTokens: [String: Date] = [:]
    }

    private let state = Mutex(State())

    func accept(_ received: Received) {
        state.withLock { $0.received.append(received) }
    }

    func reject(_ rejected: Rejected) {
        state.withLock { $0.rejected.append(rejected) }
    }

    /// Remembers an APNs provider token that verified, and says whether it was expired by the control port.
    func useProviderToken(_ token: String) -> Bool {
        state.withLock { state in
            state.seenProviderTokens.insert(token)
            return !state.expiredProviderTokens.contains(token)
        }
    }

    func issueAccessToken(_ token: String, expiresAt: Date) {
        state.withLock { $0.accessTokens[token] = expiresAt }
    }

    /// Whether `token` was issued and has not expired.
    func isValidAccessToken(_ token: String, now: Date) -> Bool {
        state.withLock { state in state.accessTokens[token].map { now < $0 } ?? false }
    }

    /// Every credential used so far stops working: APNs answers `ExpiredProviderToken`, FCM 401.
    func expireCredentials() {
        state.withLock { state in
            state.expiredProviderTokens.formUnion(state.seenProviderTokens)
            state.accessTokens = state.accessTokens.mapValues { _ in .distantPast }
        }
    }

    /// The control port: `GET /received`, `GET /rejected`, `DELETE /received`, `DELETE /rejected`,
    /// `POST /expire-credentials`.
    func control(_ request: FakeRequest) -> FakeResponse {
        switch (request.method, request.path) {
        case (.GET, "/received"):
            let received = state.withLock { $0.received }
            return .json(
                200,
                received.map { item -> [String: Any] in
                    [
                        "provider": item.provider, "token": item.token, "headers": item.headers,
                        "body": (try? JSONSerialization.jsonObject(with: item.body)) ?? NSNull(),
                    ]
                })
        case (.GET, "/rejected"):
            let rejected = state.withLock { $0.rejected }
            return .json(
                200,
                rejected.map { item -> [String: Any] in
                    [
                        "provider": item.provider, "path": item.path, "status": item.status, "reason": item.reason,
                        "detail": item.detail,
                    ]
                })
        case (.DELETE, "/received"):
            state.withLock { $0.received.removeAll() }
            return FakeResponse(status: 204)
        case (.DELETE, "/rejected"):
            state.withLock { $0.rejected.removeAll() }
            return FakeResponse(status: 204)
        case (.POST, "/expire-credentials"):
            expireCredentials()
            return FakeResponse(status: 204)
        default:
            return .json(404, ["error": "no such control endpoint: \(request.method) \(request.path)"])
        }
    }
}
