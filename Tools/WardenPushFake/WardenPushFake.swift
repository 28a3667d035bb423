import ArgumentParser
import Crypto
import CryptoExtras
import Foundation
import NIOCore

/// Local stand-ins for APNs and FCM on 127.0.0.1 (SPEC §6.3), for Warden's push tests: they check what the real
/// services require, answer as they do, and record what they accept on a plain-HTTP control port.
@main
struct WardenPushFake: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "WardenPushFake",
        abstract: "Fake APNs (HTTP/2 over TLS) and FCM (OAuth token + HTTP v1 over TLS) servers for Warden's tests.",
        discussion: """
            Prints "ready" on one line once every port listens. Control port: GET /received, GET /rejected, \
            DELETE /received, DELETE /rejected, POST /expire-credentials (every APNs provider token and FCM \
            access token used so far is refused from then on: 403 ExpiredProviderToken, 401).
            """)

    @Option(help: "Port of the plain-HTTP control API.") var controlPort: Int
    @Option(help: "TLS certificate chain (PEM) of the APNs and FCM ports.") var cert: String?
    @Option(help: "TLS private key (PEM) of the APNs and FCM ports.") var key: String?

    @Option(help: "Port of the APNs fake (HTTP/2 over TLS); needs the other --apns-* options.") var apnsPort: Int?
    @Option(help: "APNs .p8 key (PKCS#8 PEM, P-256): provider tokens must verify with its public key.")
    var apnsKeyFile: String?
    @Option(help: "Expected kid of provider tokens.") var apnsKeyID: String?
    @Option(help: "Expected iss of provider tokens.") var apnsTeamID: String?
    @Option(help: "Expected apns-topic.") var apnsTopic: String?
    @Option(help: "A device token answered with 410 Unregistered (repeatable).") var apnsUnregistered: [String] = []

    @Option(help: "Port of the FCM fake (HTTPS): /token and /v1/projects/{project}/messages:send.") var fcmPort: Int?
    @Option(help: "Service-account JSON: assertions must verify with its private_key, aud must be its token_uri.")
    var fcmServiceAccount: String?
    @Option(help: "A registration token answered with 404 UNREGISTERED (repeatable).") var fcmUnregistered: [String] =
        []

    @Flag(help: "Exit when standard input closes (so the fake dies with the test that started it).")
    var exitOnStdinEOF = false

    func validate() throws {
        if apnsPort != nil, [apnsKeyFile, apnsKeyID, apnsTeamID, apnsTopic].contains(where: { $0 == nil }) {
            throw ValidationError("--apns-port needs --apns-key-file, --apns-key-id, --apns-team-id, --apns-topic")
        }
        if fcmPort != nil, fcmServiceAccount == nil {
            throw ValidationError("--fcm-port needs --fcm-service-account")
        }
        if apnsPort != nil || fcmPort != nil, cert == nil || key == nil {
            throw ValidationError("--apns-port and --fcm-port need --cert and --key")
        }
    }

    func run() async throws {
        let record = FakeRecord()
        if let apnsPort, let apnsKeyFile, let apnsKeyID, let apnsTeamID, let apnsTopic, let cert, let key {
            let privateKey = try P256.Signing.PrivateKey(
                pemRepresentation: String(contentsOfFile: apnsKeyFile, encoding: .utf8))
            let apns = APNsFake(
                publicKey: privateKey.publicKey, keyID: apnsKeyID, teamID: apnsTeamID, topic: apnsTopic,
                unregistered: Set(apnsUnregistered), record: record)
            let tls = try FakeHTTPServer.tlsContext(certificate: cert, key: key, protocols: ["h2"])
            _ = try await FakeHTTPServer.bind(port: apnsPort, transport: .http2TLS(tls), respond: apns.respond)
        }
        if let fcmPort, let fcmServiceAccount, let cert, let key {
            let account = try JSONDecoder().decode(
                FCMFake.ServiceAccount.self, from: Data(contentsOf: URL(fileURLWithPath: fcmServiceAccount)))
            let privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: account.privateKey)
            let fcm = FCMFake(
                account: account, publicKey: privateKey.publicKey, unregistered: Set(fcmUnregistered), record: record)
            let tls = try FakeHTTPServer.tlsContext(certificate: cert, key: key, protocols: ["http/1.1"])
            _ = try await FakeHTTPServer.bind(port: fcmPort, transport: .http1TLS(tls), respond: fcm.respond)
        }
        let control = try await FakeHTTPServer.bind(port: controlPort, transport: .plain, respond: record.control)
        if exitOnStdinEOF {
            Thread.detachNewThread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                Self.exit()
            }
        }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        try await control.closeFuture.get()
    }
}
