import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DevicePush {
    /// A notification to a device enrolled with `service` and `token`.
    static func sample(service: String, token: String) throws -> DevicePush {
        let json: JSONValue = [
            "request_id": .string(BackchannelRequest.ID(authRequestID: "bcreq_1").hex), "transaction_id": "tx_1",
            "enrollment_id": "dev_8Tq2", "service": .string(service),
            "push_token": .string(token), "challenge": "c-4f1d", "requested_at": "2025-01-02T03:04:05.678Z",
            "issuer_host": "127.0.0.1:8080", "consent_id": "cns_42", "title": "Bank <Demo>",
            "binding_message": "Transfer 100 € to Bob",
        ]
        return try JSONDecoder().decode(DevicePush.self, from: Data(json.serialized.utf8))
    }

    /// A random APNs device token: 32 bytes in hex.
    static func randomAPNsToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}

/// Runs `body` with `provider`, then closes its connections whatever happened.
func withProvider<Provider: PushProviderWithConnections, Result>(
    _ provider: Provider, _ body: (Provider) async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body(provider)
    } catch {
        try? await provider.shutdown()
        throw error
    }
    try await provider.shutdown()
    return result
}

/// `WardenPushFake` (built by `swift build` into `.build/debug`) running as a child process on free loopback
/// ports, with fresh credentials from `scripts/test-support/push-fake-certs`. A missing binary or openssl fails the test.
final class PushFake {
    static let keyID = "KEY7Q2XW9Z"
    static let teamID = "TEAM5C3V8N"
    static let topic = "com.example.warden.authenticator"
    static var binary: URL { ExternalTools.repositoryRoot.appendingPathComponent(".build/debug/WardenPushFake") }

    let directory: URL
    let apnsPort: Int
    let fcmPort: Int
    let controlPort: Int
    private let process: Process
    /// Kept open: the fake (started with --exit-on-stdin-eof) exits when it closes, also if this process dies.
    private let stdin: Pipe

    private init(directory: URL, ports: [Int], process: Process, stdin: Pipe) {
        self.directory = directory
        apnsPort = ports[0]
        fcmPort = ports[1]
        controlPort = ports[2]
        self.process = process
        self.stdin = stdin
    }

    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var apnsKeyFile: String { directory.appendingPathComponent("apns-key.p8").path }
    var serviceAccountFile: String { directory.appendingPathComponent("fcm-service-account.json").path }

    var apnsSettings: WardenConfiguration.APNsSettings {
        .init(
            keyFile: apnsKeyFile, keyID: Self.keyID, teamID: Self.teamID, topic: Self.topic,
            endpoint: URL(string: "https://localhost:\(apnsPort)")!, caFile: caFile)
    }

    var fcmSettings: WardenConfiguration.FCMSettings {
        .init(
            serviceAccountFile: serviceAccountFile, endpoint: URL(string: "https://127.0.0.1:\(fcmPort)")!,
            caFile: caFile)
    }

    /// Makes credentials in a temporary directory, starts the fake, runs `body`, stops the fake.
    static func with<Result>(
        apnsUnregistered: [String] = [], fcmUnregistered: [String] = [], _ body: (PushFake) async throws -> Result
    ) async throws -> Result {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fake = try await start(in: directory, apnsUnregistered: apnsUnregistered, fcmUnregistered: fcmUnregistered)
        defer { fake.stop() }
        return try await body(fake)
    }

    /// Runs `scripts/test-support/push-fake-certs DIRECTORY FCM_PORT`.
    static func makeCredentials(in directory: URL, fcmPort: Int) async throws {
        let script = ExternalTools.repositoryRoot.appendingPathComponent("scripts/test-support/push-fake-certs").path
        let result = try await ExternalTools.run([script, directory.path, "\(fcmPort)"])
        guard result.status == 0 else {
            throw MissingTestTool(
                description: "scripts/test-support/push-fake-certs failed (status \(result.status); it needs openssl): "
                    + result.stderr)
        }
    }

    /// Starts the fake on fresh ports, again (up to three times) when another test took one of them between
    /// ``freePorts(_:)`` and the fake's bind.
    private static func start(in directory: URL, apnsUnregistered: [String], fcmUnregistered: [String])
        async throws -> PushFake
    {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await launch(
                    in: directory, apnsUnregistered: apnsUnregistered, fcmUnregistered: fcmUnregistered)
            } catch let error as MissingTestTool where attempt < 3 && error.description.contains("already in use") {
                continue
            }
        }
    }

    private static func launch(in directory: URL, apnsUnregistered: [String], fcmUnregistered: [String])
        async throws -> PushFake
    {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw MissingTestTool(description: "\(binary.path) is missing: run `swift build` first")
        }
        let ports = try await freePorts(3)
        try await makeCredentials(in: directory, fcmPort: ports[1])
        let process = Process()
        process.executableURL = binary
        process.arguments =
            [
                "--control-port", "\(ports[2])", "--cert", directory.appendingPathComponent("server.pem").path,
                "--key", directory.appendingPathComponent("server-key.pem").path, "--apns-port", "\(ports[0])",
                "--apns-key-file", directory.appendingPathComponent("apns-key.p8").path, "--apns-key-id", keyID,
                "--apns-team-id", teamID, "--apns-topic", topic, "--fcm-port", "\(ports[1])",
                "--fcm-service-account", directory.appendingPathComponent("fcm-service-account.json").path,
                "--exit-on-stdin-eof",
            ] + apnsUnregistered.flatMap { ["--apns-unregistered", $0] }
            + fcmUnregistered.flatMap { ["--fcm-unregistered", $0] }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let output = Output()
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        defer { stdout.fileHandleForReading.readabilityHandler = nil }
        try process.run()
        let fake = PushFake(directory: directory, ports: ports, process: process, stdin: stdin)
        let deadline = ContinuousClock.now + .seconds(10)
        while !output.text.withLock({ $0.split(separator: "\n").contains("ready") }) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                fake.stop()
                let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw MissingTestTool(description: "WardenPushFake did not get ready: \(errors)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return fake
    }

    /// What the child prints, filled from a pipe callback.
    private final class Output: Sendable {
        let text = Mutex("")
    }

    /// `count` ports that were free a moment ago (bound to port 0, then released).
    private static func freePorts(_ count: Int) async throws -> [Int] {
        var channels: [any Channel] = []
        for _ in 0..<count {
            channels.append(
                try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0)
                    .get())
        }
        let ports = channels.compactMap { $0.localAddress?.port }
        for channel in channels { try await channel.close() }
        return ports
    }

    /// Stops the fake: closes its standard input, then SIGTERM, then SIGKILL after 3 s.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    // MARK: - Control port

    /// Everything accepted so far: `[{"provider", "token", "headers", "body"}]`.
    func received() async throws -> [JSONValue] {
        try await control(.GET, "/received").arrayValue ?? []
    }

    /// Everything refused so far: `[{"provider", "path", "status", "reason", "detail"}]`.
    func rejected() async throws -> [JSONValue] {
        try await control(.GET, "/rejected").arrayValue ?? []
    }

    /// Every credential used so far is refused from now on.
    func expireCredentials() async throws {
        _ = try await control(.POST, "/expire-credentials")
    }

    private func control(_ method: HTTPMethod, _ path: String) async throws -> JSONValue {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(controlPort)\(path)")
        request.method = method
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard body.readableBytes > 0 else { return .null }
        return try JSONDecoder().decode(JSONValue.self, from: Data(buffer: body))
    }
}

/// The JSON header and claims of a compact JWS, without checking anything.
func decodedJWT(_ token: String) throws -> (header: JSONValue, claims: JSONValue) {
    let parts = token.split(separator: ".").map(String.init)
    try #require(parts.count == 3, "not a compact JWS: \(token)")
    let decode = { (part: String) throws -> JSONValue in
        try JSONDecoder().decode(JSONValue.self, from: try #require(Base64URL.decode(part)))
    }
    return (try decode(parts[0]), try decode(parts[1]))
}
