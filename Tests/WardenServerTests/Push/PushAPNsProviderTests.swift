import Crypto
import Foundation
import Logging
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// ``APNsProvider`` against `WardenPushFake`'s APNs (HTTP/2 over TLS, checks as Apple's "Sending notification
/// requests to APNs"; SPEC §6.3, §7.2).
@Suite("Push: APNs provider")
struct PushAPNsProviderTests {
    static func provider(_ fake: PushFake) throws -> APNsProvider {
        APNsProvider(try APNsProvider.Setup(settings: fake.apnsSettings), logger: Logger(label: "test"))
    }

    @Test func aNotificationArrivesWithTheHeadersAndBodyAPNsRequires() async throws {
        try await PushFake.with { fake in
            let push = try DevicePush.sample(service: "APNS", token: DevicePush.randomAPNsToken())
            try await withProvider(try Self.provider(fake)) { try await $0.send(push, transactionToken: "txtkn-1") }
            #expect(try await fake.rejected() == [])
            let received = try await fake.received()
            try #require(received.count == 1)
            #expect(received[0]["provider"] == "apns")
            #expect(received[0]["token"]?.stringValue == push.pushToken)
            let headers = try #require(received[0]["headers"])
            #expect(headers["apns-topic"]?.stringValue == PushFake.topic)
            #expect(headers["apns-push-type"] == "alert")
            #expect(headers["apns-priority"] == "10")
            #expect(received[0]["body"] == push.apnsBody(transactionToken: "txtkn-1"))
            let authorization = try #require(headers["authorization"]?.stringValue)
            #expect(authorization.hasPrefix("bearer "))
            let jwt = try decodedJWT(String(authorization.dropFirst("bearer ".count)))
            #expect(jwt.header["alg"] == "ES256")
            #expect(jwt.header["kid"]?.stringValue == PushFake.keyID)
            #expect(jwt.claims["iss"]?.stringValue == PushFake.teamID)
            let issuedAt = try #require(jwt.claims["iat"]?.doubleValue)
            #expect(abs(issuedAt - Date().timeIntervalSince1970) < 60)
        }
    }

    @Test func theProviderTokenIsMintedOnceAndReused() async throws {
        try await PushFake.with { fake in
            try await withProvider(try Self.provider(fake)) { provider in
                for _ in 0..<3 {
                    let push = try DevicePush.sample(service: "APNS", token: DevicePush.randomAPNsToken())
                    try await provider.send(push, transactionToken: "txtkn")
                }
            }
            let tokens = try await fake.received().compactMap { $0["headers"]?["authorization"]?.stringValue }
            #expect(tokens.count == 3)
            #expect(Set(tokens).count == 1)
        }
    }

    @Test func anExpiredProviderTokenIsDroppedAndTheRetryUsesANewOne() async throws {
        try await PushFake.with { fake in
            let push = try DevicePush.sample(service: "APNS", token: DevicePush.randomAPNsToken())
            try await withProvider(try Self.provider(fake)) { provider in
                try await provider.send(push, transactionToken: "txtkn")
                try await fake.expireCredentials()
                let error = await #expect(throws: PushServiceError.self) {
                    try await provider.send(push, transactionToken: "txtkn")
                }
                #expect(error?.status == 403)
                #expect(error?.reason == "ExpiredProviderToken")
                try await provider.send(push, transactionToken: "txtkn")
            }
            let tokens = try await fake.received().compactMap { $0["headers"]?["authorization"]?.stringValue }
            #expect(tokens.count == 2)
            #expect(Set(tokens).count == 2)
        }
    }

    @Test func anUnregisteredDeviceTokenIsRejectedForGood() async throws {
        let token = DevicePush.randomAPNsToken()
        try await PushFake.with(apnsUnregistered: [token]) { fake in
            try await withProvider(try Self.provider(fake)) { provider in
                await #expect(throws: PushRejection.unregistered(reason: "Unregistered")) {
                    try await provider.send(try DevicePush.sample(service: "APNS", token: token), transactionToken: "t")
                }
                // Not hex: APNs answers 400 BadDeviceToken, which no retry can fix either.
                await #expect(throws: PushRejection.unregistered(reason: "BadDeviceToken")) {
                    try await provider.send(
                        try DevicePush.sample(service: "APNS", token: "not/a token"), transactionToken: "t")
                }
            }
            #expect(try await fake.received() == [])
            #expect(
                try await fake.rejected().compactMap { $0["reason"]?.stringValue } == [
                    "Unregistered", "BadDeviceToken",
                ])
        }
    }

    @Test func theProviderTokenIsRefreshedAfterFiftyMinutes() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("key.p8")
        try P256.Signing.PrivateKey().pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let token = try APNsProviderToken(
            settings: .init(
                keyFile: keyFile.path, keyID: "K", teamID: "T", topic: "t", endpoint: URL(string: "https://apns")!,
                caFile: nil))
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let first = try token.current(now: start)
        #expect(try token.current(now: start.addingTimeInterval(49 * 60)) == first)
        let second = try token.current(now: start.addingTimeInterval(50 * 60))
        #expect(second != first)
        #expect(try decodedJWT(second).claims["iat"] == .number(1_700_000_000 + 50 * 60))
        token.discard(first)  // an old token: the current one stays
        #expect(try token.current(now: start.addingTimeInterval(51 * 60)) == second)
        token.discard(second)
        #expect(try token.current(now: start.addingTimeInterval(51 * 60)) != second)
    }
}
