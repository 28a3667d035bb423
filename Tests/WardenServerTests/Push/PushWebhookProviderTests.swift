import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import Synchronization
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// ``WebhookProvider`` against a real HTTP receiver on loopback (SPEC §6.3): the signed body of §7.2, and how
/// the receiver's status decides between delivered, retried and failed for good.
@Suite("Push: webhook provider")
struct PushWebhookProviderTests {
    static let secret = "whsec-7f3a9c"

    /// What the receiver got.
    final class Received: Sendable {
        let requests = Mutex<[(headers: HTTPFields, body: Data)]>([])
        let status: HTTPResponse.Status
        init(status: HTTPResponse.Status) { self.status = status }
    }

    static func receiver(_ received: Received) -> some ApplicationProtocol {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 * 1024)
            received.requests.withLock { $0.append((request.headers, Data(buffer: body))) }
            return Response(status: received.status)
        }
        return Application(router: router)
    }

    static func provider(port: Int) -> WebhookProvider {
        WebhookProvider(url: URL(string: "http://127.0.0.1:\(port)/hook")!, secret: secret, httpClient: .shared)
    }

    @Test func theBodyIsTheWebhookPayloadSignedWithHMACSHA256() async throws {
        let received = Received(status: .noContent)
        let push = try DevicePush.sample(service: "WEBHOOK", token: "hook-device-1")
        try await Self.receiver(received).test(.live) { receiver in
            try await Self.provider(port: try #require(receiver.port)).send(push, transactionToken: "txtkn-1")
        }
        let requests = received.requests.withLock { $0 }
        try #require(requests.count == 1)
        let (headers, body) = requests[0]
        #expect(headers[.contentType] == "application/json")
        let signature = try #require(headers[HTTPField.Name("X-Warden-Signature")!])
        #expect(signature.hasPrefix("sha256="))
        let mac = try #require(Self.bytes(hex: String(signature.dropFirst("sha256=".count))))
        #expect(
            HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: body, using: SymmetricKey(data: Data(Self.secret.utf8))))
        let json = try JSONDecoder().decode(JSONValue.self, from: body)
        #expect(json == push.webhookBody(transactionToken: "txtkn-1"))
        #expect(json["device"] == ["id": "dev_8Tq2", "service": "WEBHOOK", "token": "hook-device-1"])
        #expect(json["mfa"]?["txtkn"] == "txtkn-1")
    }

    enum Outcome: Sendable { case delivered, retried, failedForGood }

    @Test(arguments: [
        (200, Outcome.delivered), (202, .delivered), (204, .delivered), (400, .failedForGood), (401, .failedForGood),
        (404, .failedForGood), (410, .failedForGood), (408, .retried), (429, .retried), (500, .retried),
        (503, .retried),
    ])
    func theStatusDecidesBetweenDeliveredRetriedAndFailedForGood(status: Int, outcome: Outcome) async throws {
        let received = Received(status: HTTPResponse.Status(code: status))
        try await Self.receiver(received).test(.live) { receiver in
            let provider = Self.provider(port: try #require(receiver.port))
            let send = {
                try await provider.send(try DevicePush.sample(service: "WEBHOOK", token: "t"), transactionToken: "x")
            }
            switch outcome {
            case .delivered: try await send()
            case .retried: await #expect(throws: PushServiceError.self) { try await send() }
            case .failedForGood: await #expect(throws: DeliveryFailure.self) { try await send() }
            }
        }
        #expect(received.requests.withLock { $0.count } == 1)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
