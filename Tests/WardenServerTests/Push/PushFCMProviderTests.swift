import Foundation
import Logging
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// ``FCMProvider`` against `WardenPushFake`'s FCM: the RFC 7523 token grant, then HTTP v1 `messages:send`
/// (SPEC §6.3, §7.2).
@Suite("Push: FCM provider")
struct PushFCMProviderTests {
    static func provider(_ fake: PushFake) throws -> FCMProvider {
        FCMProvider(try FCMProvider.Setup(settings: fake.fcmSettings), logger: Logger(label: "test"))
    }

    @Test func aDataMessageArrivesWithEveryFieldAsAString() async throws {
        try await PushFake.with { fake in
            let push = try DevicePush.sample(service: "FCM", token: "fcm-token-1")
            try await withProvider(try Self.provider(fake)) { try await $0.send(push, transactionToken: "txtkn-1") }
            #expect(try await fake.rejected() == [])
            let received = try await fake.received()
            try #require(received.count == 1)
            #expect(received[0]["provider"] == "fcm")
            #expect(received[0]["token"] == "fcm-token-1")
            let message = try #require(received[0]["body"]?["message"])
            #expect(message["token"] == "fcm-token-1")
            #expect(message["data"] == .object(push.fcmData(transactionToken: "txtkn-1").mapValues(JSONValue.string)))
            #expect(message["data"]?["txtkn"] == "txtkn-1")
            #expect(message["android"]?["priority"] == "high")
            #expect(received[0]["headers"]?["authorization"]?.stringValue?.hasPrefix("Bearer ya29.") == true)
        }
    }

    @Test func theAccessTokenIsObtainedOnceAndReused() async throws {
        try await PushFake.with { fake in
            try await withProvider(try Self.provider(fake)) { provider in
                try await provider.send(try DevicePush.sample(service: "FCM", token: "a"), transactionToken: "t")
                try await provider.send(try DevicePush.sample(service: "GCM", token: "b"), transactionToken: "t")
            }
            let tokens = try await fake.received().compactMap { $0["headers"]?["authorization"]?.stringValue }
            #expect(tokens.count == 2)
            #expect(Set(tokens).count == 1)
        }
    }

    @Test func aRefusedAccessTokenIsDroppedAndTheRetryObtainsANewOne() async throws {
        try await PushFake.with { fake in
            let push = try DevicePush.sample(service: "FCM", token: "fcm-token-2")
            try await withProvider(try Self.provider(fake)) { provider in
                try await provider.send(push, transactionToken: "t")
                try await fake.expireCredentials()
                let error = await #expect(throws: PushServiceError.self) {
                    try await provider.send(push, transactionToken: "t")
                }
                #expect(error?.status == 401)
                try await provider.send(push, transactionToken: "t")
            }
            let tokens = try await fake.received().compactMap { $0["headers"]?["authorization"]?.stringValue }
            #expect(tokens.count == 2)
            #expect(Set(tokens).count == 2)
        }
    }

    @Test func anUnregisteredTokenIsRejectedForGood() async throws {
        try await PushFake.with(fcmUnregistered: ["fcm-gone"]) { fake in
            try await withProvider(try Self.provider(fake)) { provider in
                await #expect(throws: PushRejection.unregistered(reason: "UNREGISTERED")) {
                    try await provider.send(
                        try DevicePush.sample(service: "FCM", token: "fcm-gone"), transactionToken: "t")
                }
                // An empty token: 400 INVALID_ARGUMENT naming message.token.
                await #expect(throws: PushRejection.self) {
                    try await provider.send(try DevicePush.sample(service: "FCM", token: ""), transactionToken: "t")
                }
            }
            #expect(try await fake.received() == [])
            #expect(
                try await fake.rejected().compactMap { $0["reason"]?.stringValue } == [
                    "UNREGISTERED", "INVALID_ARGUMENT",
                ])
        }
    }
}
