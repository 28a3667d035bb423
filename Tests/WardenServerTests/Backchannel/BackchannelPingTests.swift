import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// Ping mode (CIBA Core §10.2, SPEC §6.2): on the decision Warden POSTs `{"auth_req_id"}` with the client's
/// bearer token to its notification endpoint — a real HTTP server on loopback here — retrying until it is
/// taken, and the client then redeems as in poll mode.
@Suite("CIBA ping mode")
struct BackchannelPingTests {
    /// What the client's notification endpoint received.
    final class Received: Sendable {
        let requests = Mutex<[(authorization: String?, body: String)]>([])
        /// The status of each answer in turn; the last one repeats.
        let statuses: [HTTPResponse.Status]
        init(statuses: [HTTPResponse.Status]) { self.statuses = statuses }
    }

    static func endpoint(_ received: Received) -> some ApplicationProtocol {
        let router = Router()
        router.post("ciba") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 4096)
            let index = received.requests.withLock { requests in
                requests.append((request.headers[.authorization], String(buffer: body)))
                return requests.count - 1
            }
            return Response(status: received.statuses[min(index, received.statuses.count - 1)])
        }
        return Application(router: router)
    }

    @Test func theDecisionIsPingedWithTheBearerTokenAndRetriedUntilTaken() async throws {
        let received = Received(statuses: [.internalServerError, .noContent])
        try await Self.endpoint(received).test(.live) { endpoint in
            let port = try #require(endpoint.port)
            let fixture = try await BackchannelFixture.make {
                $0.backchannelTokenDeliveryMode = .ping
                $0.backchannelClientNotificationEndpoint = "http://127.0.0.1:\(port)/ciba"
            }
            let deliveries = fixture.warden.runtime.deliveries
            try await fixture.warden.test { http in
                let id = try await fixture.started(["client_notification_token": "cnt-8d67dc78"], http: http)
                #expect(received.requests.withLock { $0.count } == 0)
                var browser = Browser(http)
                _ = try await fixture.decide(true, path: try await fixture.approvalPath(), browser: &browser)
                await deliveries.waitUntilIdle()
                #expect(received.requests.withLock { $0.count } == 1)
                fixture.warden.clock.advance(by: DeliveryService.backoff(afterAttempt: 1))
                #expect(await deliveries.runDue() == 1)
                let requests = received.requests.withLock { $0 }
                #expect(requests.count == 2)
                for request in requests {
                    #expect(request.authorization == "Bearer cnt-8d67dc78")
                    let body = try JSONDecoder().decode(JSONValue.self, from: Data(request.body.utf8))
                    #expect(body == .object(["auth_req_id": .string(id)]))
                }
                #expect(await deliveries.runDue() == 0)
                #expect(try await fixture.poll(id, http: http).status == .ok)
            }
        }
    }

    @Test func aDenialIsPingedToo() async throws {
        let received = Received(statuses: [.ok])
        try await Self.endpoint(received).test(.live) { endpoint in
            let port = try #require(endpoint.port)
            let fixture = try await BackchannelFixture.make {
                $0.backchannelTokenDeliveryMode = .ping
                $0.backchannelClientNotificationEndpoint = "http://127.0.0.1:\(port)/ciba"
            }
            try await fixture.warden.test { http in
                let id = try await fixture.started(["client_notification_token": "cnt-1"], http: http)
                var browser = Browser(http)
                _ = try await fixture.decide(false, path: try await fixture.approvalPath(), browser: &browser)
                await fixture.warden.runtime.deliveries.waitUntilIdle()
                #expect(received.requests.withLock { $0.count } == 1)
                #expect(try await fixture.poll(id, http: http).json["error"] == "access_denied")
            }
        }
    }
}
