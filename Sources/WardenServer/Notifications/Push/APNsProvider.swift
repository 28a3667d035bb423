import AsyncHTTPClient
import Foundation
import Logging
import NIOHTTP1
import NIOSSL
import WardenCore
import WardenWire

/// Apple Push Notification service (SPEC §6.3, body of §7.2), per Apple's "Sending notification requests to
/// APNs": `POST {endpoint}/3/device/{device token}` over HTTP/2 with `authorization: bearer {provider token}`
/// (``APNsProviderToken``), `apns-topic`, `apns-push-type: alert`, `apns-priority: 10`.
///
/// Answers ("Handling notification responses from APNs"): 200 delivered; 410 (`Unregistered`, `ExpiredToken`)
/// and 400 `BadDeviceToken` mean the device token is dead; 403 `ExpiredProviderToken` or
/// `InvalidProviderToken` drops the provider token and retries; 429 and 5xx retry; any other 4xx is permanent.
final class APNsProvider: PushProviderWithConnections {
    /// What is read from the settings before any connection exists: the key and the trust roots.
    struct Setup {
        var settings: WardenConfiguration.APNsSettings
        var token: APNsProviderToken
        var tls: TLSConfiguration

        init(settings: WardenConfiguration.APNsSettings) throws {
            self.settings = settings
            token = try APNsProviderToken(settings: settings)
            tls = try OutboundTLS.configuration(caFile: settings.caFile, flag: "--apns-ca-file")
        }
    }

    let name = "apns"
    private let endpoint: String
    private let topic: String
    private let token: APNsProviderToken
    private let httpClient: HTTPClient
    private let logger: Logger

    init(_ setup: Setup, logger: Logger) {
        let endpoint = setup.settings.endpoint.absoluteString
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        topic = setup.settings.topic
        token = setup.token
        httpClient = PushHTTP.makeClient(tls: setup.tls)
        self.logger = logger
    }

    func send(_ push: DevicePush, transactionToken: String) async throws {
        let providerToken = try token.current()
        var headers = HTTPHeaders()
        headers.add(name: "authorization", value: "bearer " + providerToken)
        headers.add(name: "apns-topic", value: topic)
        headers.add(name: "apns-push-type", value: "alert")
        headers.add(name: "apns-priority", value: "10")
        headers.add(name: "content-type", value: "application/json")
        let response = try await PushHTTP.post(
            endpoint + "/3/device/" + PushHTTP.percentEncoded(push.pushToken), headers: headers,
            body: push.apnsBody(transactionToken: transactionToken).serialized, on: httpClient)
        let reason = response.json?["reason"]?.stringValue ?? ""
        switch (response.status, reason) {
        case (200, _):
            logger.debug(
                "APNs accepted a notification",
                metadata: [
                    "apns_id": "\(response.headers.first(name: "apns-id") ?? "")", "dai": "\(push.enrollmentID)",
                ])
        case (410, _), (400, "BadDeviceToken"):
            throw PushRejection.unregistered(reason: reason.isEmpty ? "Unregistered" : reason)
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"):
            token.discard(providerToken)
            throw PushServiceError(service: name, status: response.status, reason: reason)
        default:
            try PushHTTP.check(response.status, service: name, reason: reason)
        }
    }

    func shutdown() async throws {
        try await httpClient.shutdown()
    }
}
