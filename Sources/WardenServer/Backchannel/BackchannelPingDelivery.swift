import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import WardenCore
import WardenWire

/// The ping of a ping-mode client (CIBA Core §10.2, SPEC §6.2): `POST {"auth_req_id"}` to its
/// `backchannel_client_notification_endpoint` with `Authorization: Bearer {client_notification_token}`.
/// Any 2xx answer delivers it; anything else is retried with backoff until the request expires.
struct BackchannelPingDelivery: DeliveryHandler {
    struct Payload: JobPayload {
        var requestID: BackchannelRequest.ID
        enum CodingKeys: String, CodingKey { case requestID = "request_id" }
    }

    static let timeout = TimeAmount.seconds(10)

    let requests: any BackchannelRequestStore
    let httpClient: HTTPClient
    let logger: Logger

    /// A delivery pinging, with `httpClient`, the client of each decided request of `requests`.
    init(requests: any BackchannelRequestStore, httpClient: HTTPClient, logger: Logger) {
        self.requests = requests
        self.httpClient = httpClient
        self.logger = logger
    }

    var kind: DeliveryJob.Kind { .backchannelPing }

    func deliver(_ job: DeliveryJob) async throws {
        let payload = try Payload(of: job)
        guard let request = try await requests.backchannelRequest(id: payload.requestID), let ping = request.ping else {
            return  // purged meanwhile: nothing left to announce
        }
        var outbound = HTTPClientRequest(url: ping.endpoint)
        outbound.method = .POST
        outbound.headers.add(name: "Content-Type", value: "application/json")
        outbound.headers.add(name: "Authorization", value: "Bearer " + ping.clientNotificationToken)
        outbound.body = .bytes(
            ByteBuffer(string: JSONValue.serializedObject([("auth_req_id", .string(ping.authRequestID))])))
        let response = try await httpClient.execute(outbound, timeout: Self.timeout)
        // The body is not read: drain it so the connection can be reused.
        _ = try? await response.body.collect(upTo: 64 * 1024)
        guard (200..<300).contains(response.status.code) else {
            throw PingRefused(status: Int(response.status.code))
        }
        logger.info(
            "CIBA ping delivered", metadata: ["client_id": "\(request.clientID)", "status": "\(response.status.code)"])
    }

    func abandon(_ job: DeliveryJob, reason: String) async {
        logger.error("CIBA ping abandoned", metadata: ["job": "\(job.id)", "reason": "\(reason)"])
    }

    struct PingRefused: Error, CustomStringConvertible {
        var status: Int
        var description: String { "the notification endpoint answered HTTP \(status)" }
    }
}
