import Foundation
import Logging
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// ``PushProviders``: which provider serves which enrolled service (SPEC §7.1), and start-up errors for
/// settings that cannot work (SPEC §1).
@Suite("Push: providers from the configuration")
struct PushProvidersTests {
    /// Credentials from `scripts/test-support/push-fake-certs` in a temporary directory (no fake is started).
    static func withCredentials(_ body: (URL) async throws -> Void) async throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await PushFake.makeCredentials(in: directory, fcmPort: 1)
        try await body(directory)
    }

    static func configuration(_ directory: URL) -> WardenConfiguration {
        var configuration = WardenConfiguration(issuer: URL(string: "http://127.0.0.1:8080/")!)
        configuration.pushWebhookURL = URL(string: "https://hooks.example.com/warden")
        configuration.pushWebhookSecret = "s3cret"
        configuration.apns = .init(
            keyFile: directory.appendingPathComponent("apns-key.p8").path, keyID: "K", teamID: "T", topic: "app",
            endpoint: URL(string: "https://api.push.apple.com")!,
            caFile: directory.appendingPathComponent("ca.pem").path)
        configuration.fcm = .init(
            serviceAccountFile: directory.appendingPathComponent("fcm-service-account.json").path,
            endpoint: URL(string: "https://fcm.googleapis.com")!, caFile: nil)
        return configuration
    }

    @Test func eachEnrolledServiceGetsItsProvider() async throws {
        try await Self.withCredentials { directory in
            let providers = try PushProviders.make(
                configuration: Self.configuration(directory), logger: Logger(label: "test"))
            #expect(providers.keys.map(\.rawValue).sorted() == ["APNS", "FCM", "GCM", "WEBHOOK"])
            #expect(providers[.apns]?.name == "apns")
            #expect(providers[.webhook]?.name == "webhook")
            let fcm = try #require(providers[.fcm] as? FCMProvider)
            #expect(providers[.gcm] as? FCMProvider === fcm)
            try await PushProviders.shutdown(providers)
        }
    }

    @Test func withoutSettingsThereIsNoProvider() throws {
        let configuration = WardenConfiguration(issuer: URL(string: "http://127.0.0.1:8080/")!)
        #expect(try PushProviders.make(configuration: configuration, logger: Logger(label: "test")).isEmpty)
    }

    /// Settings that cannot work, each with the flag its error must name.
    enum Misconfiguration: CaseIterable, Sendable {
        case missingAPNsKey, apnsKeyNotP256, apnsCANotACertificate, serviceAccountNotJSON, webhookWithoutSecret

        var flag: String {
            switch self {
            case .missingAPNsKey, .apnsKeyNotP256: "--apns-key-file"
            case .apnsCANotACertificate: "--apns-ca-file"
            case .serviceAccountNotJSON: "--fcm-service-account"
            case .webhookWithoutSecret: "--push-webhook-secret"
            }
        }

        func apply(to configuration: inout WardenConfiguration, credentials directory: URL) {
            let file = { (name: String) in directory.appendingPathComponent(name).path }
            switch self {
            case .missingAPNsKey: configuration.apns?.keyFile = file("missing.p8")
            case .apnsKeyNotP256: configuration.apns?.keyFile = file("fcm-key.pem")
            case .apnsCANotACertificate: configuration.apns?.caFile = file("apns-key.p8")
            case .serviceAccountNotJSON: configuration.fcm?.serviceAccountFile = file("ca.pem")
            case .webhookWithoutSecret: configuration.pushWebhookSecret = nil
            }
        }
    }

    @Test(arguments: Misconfiguration.allCases)
    func aSettingThatCannotWorkFailsAtStartUp(_ misconfiguration: Misconfiguration) async throws {
        try await Self.withCredentials { directory in
            var configuration = Self.configuration(directory)
            misconfiguration.apply(to: &configuration, credentials: directory)
            let error = #expect(throws: (any Error).self) {
                try PushProviders.make(configuration: configuration, logger: Logger(label: "test"))
            }
            let message = error.map { String(describing: $0) } ?? ""
            #expect(message.contains(misconfiguration.flag), "\(message)")
        }
    }
}
