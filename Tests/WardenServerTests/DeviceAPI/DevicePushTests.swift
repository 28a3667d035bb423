import Foundation
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The notification payload of SPEC §7.2 per provider, and the transaction token that names it.
@Suite("Device notifications and transaction tokens")
struct DevicePushTests {
    static func push(issuer: String = "https://id.example.com/") -> DevicePush {
        let created = Date(timeIntervalSince1970: 1_795_000_000.5)
        let request = BackchannelRequest(
            id: BackchannelRequest.ID(authRequestID: "req"), consentID: "cns_abc", clientID: "client",
            userID: "auth0|u", scope: ["openid"], audience: nil,
            bindingMessage: "Pay 10 EUR", authorizationDetails: nil, channel: .push, approvalTokenHash: nil,
            ping: nil, createdAt: created, expiresAt: created.addingTimeInterval(300))
        let enrollment = DeviceEnrollment(
            id: "dev_1", userID: "auth0|u", identifier: "phone", name: "Phone",
            pushCredentials: .init(service: "WEBHOOK", token: "hook-token"), publicKeyModulus: "n",
            publicKeyExponent: "AQAB", tokenHash: "h", totpSecret: "S", createdAt: created)
        let transaction = DeviceTransaction(
            id: "dtx_1", requestID: request.id, enrollmentID: "dev_1", challenge: "chal", createdAt: created,
            expiresAt: request.expiresAt)
        return DevicePush(
            transaction: transaction, request: request, enrollment: enrollment, clientName: "Bank",
            issuer: URL(string: issuer)!)
    }

    @Test func theFieldsFollowSPEC72() {
        let push = Self.push()
        let fields = Dictionary(uniqueKeysWithValues: push.fields(transactionToken: "T"))
        #expect(
            fields == [
                "dai": "dev_1", "txtkn": "T", "c": "chal", "d": "2026-11-18T11:06:40.500Z", "sh": "id.example.com",
                "txlnkid": "cns_abc",
            ])
        #expect(Self.push(issuer: "http://127.0.0.1:8080/").issuerHost == "127.0.0.1:8080")
        #expect(Self.push(issuer: "https://id.example.com:8443/").issuerHost == "id.example.com:8443")
    }

    @Test func timesRoundToTheMillisecondAsStorageKeepsThem() {
        for seconds in [1_795_000_000.9166, 1_795_000_000.917, 1_795_000_000.91699999] {
            #expect(ManagementResponse.timestamp(Date(timeIntervalSince1970: seconds)) == "2026-11-18T11:06:40.917Z")
        }
        #expect(
            ManagementResponse.timestamp(Date(timeIntervalSince1970: 1_795_000_000.9996)) == "2026-11-18T11:06:41.000Z")
        #expect(ManagementResponse.timestamp(Date(timeIntervalSince1970: 0.004)) == "1970-01-01T00:00:00.004Z")
    }

    @Test func eachProviderGetsItsShape() {
        let push = Self.push()
        let apns = push.apnsBody(transactionToken: "T")
        #expect(apns["aps"]?["alert"]?["title"] == "Bank")
        #expect(apns["aps"]?["alert"]?["body"] == "Pay 10 EUR")
        #expect(apns["aps"]?["category"] == "com.auth0.notification.authentication")
        #expect(apns["aps"]?["sound"] == "default")
        #expect(apns["mfa"]?["txlnkid"] == "cns_abc")
        #expect(apns["device"] == nil)
        #expect(push.fcmData(transactionToken: "T")["txtkn"] == "T")
        #expect(push.fcmData(transactionToken: "T").count == 6)
        let webhook = push.webhookBody(transactionToken: "T")
        #expect(webhook["device"] == .object(["id": "dev_1", "service": "WEBHOOK", "token": "hook-token"]))
        #expect(webhook["mfa"] == apns["mfa"])
    }

    /// SPEC §12: a sign-in push has no `txlnkid`, carries `s` and `l` (JSON-encoded for FCM) and the alert
    /// "{issuer label}: sign in" / "Sign in to {client name}".
    @Test func aSignInPushHasNoConsentAndNamesTheBrowser() throws {
        let created = Date(timeIntervalSince1970: 1_795_000_000.5)
        let challenge = LoginChallenge(
            id: LoginChallenge.ID(authRequestID: "login"), transactionHash: "h", userID: "auth0|u", clientID: "client",
            source: ["b": ["n": "Chrome", "v": "131"], "os": ["n": "Linux"]], location: ["n": "Germany"],
            createdAt: created, expiresAt: created.addingTimeInterval(300))
        let enrollment = DeviceEnrollment(
            id: "dev_1", userID: "auth0|u", identifier: "phone", name: "Phone",
            pushCredentials: .init(service: "FCM", token: "fcm-token"), publicKeyModulus: "n",
            publicKeyExponent: "AQAB", tokenHash: "h", totpSecret: "S", createdAt: created)
        let transaction = DeviceTransaction(
            id: "dtx_1", requestID: challenge.id, enrollmentID: "dev_1", challenge: "chal", createdAt: created,
            expiresAt: challenge.expiresAt)
        let push = DevicePush(
            transaction: transaction, challenge: challenge, enrollment: enrollment, clientName: "Bank\u{202E}",
            issuer: URL(string: "https://id.example.com/")!)
        let fields = Dictionary(uniqueKeysWithValues: push.fields(transactionToken: "T"))
        #expect(fields["txlnkid"] == nil)
        #expect(fields["s"] == challenge.source && fields["l"] == challenge.location)
        #expect(push.alert == ["title": "Warden: sign in", "body": "Sign in to Bank"])
        let fcm = push.fcmData(transactionToken: "T")
        #expect(fcm["l"] == #"{"n":"Germany"}"#)
        #expect(fcm["s"] == #"{"b":{"n":"Chrome","v":"131"},"os":{"n":"Linux"}}"#)
        let decoded = try JSONDecoder().decode(DevicePush.self, from: Data(push.json.utf8))
        #expect(decoded == push)
    }

    @Test func aTransactionTokenVerifiesOnlyAsMinted() async throws {
        let warden = try await TestWarden.make()
        let tokens = warden.runtime.deviceTransactions.tokens
        let transaction = DeviceTransaction(
            id: "dtx_1", requestID: BackchannelRequest.ID(authRequestID: "req"), enrollmentID: "dev_1", challenge: "c",
            createdAt: warden.clock.now(),
            expiresAt: warden.clock.now().addingTimeInterval(300))
        let token = try await tokens.mint(for: transaction)
        let claims = try #require(tokens.verify(token))
        #expect(claims.transactionID == "dtx_1")
        #expect(claims.enrollmentID == "dev_1")
        let parts = token.split(separator: ".").map(String.init)
        // Another payload under the same MAC, another MAC, another issuer's verifier, an access token: refused.
        let forged = Base64URL.encode(
            Data(#"{"iss":"\#(warden.runtime.issuer)","tx":"dtx_2","dai":"dev_1","exp":9999999999}"#.utf8))
        #expect(tokens.verify([parts[0], forged, parts[2]].joined(separator: ".")) == nil)
        #expect(
            tokens.verify([parts[0], parts[1], Base64URL.encode(Data(repeating: 1, count: 32))].joined(separator: "."))
                == nil)
        #expect(TransactionToken(keys: tokens.keys, issuer: "https://other.example/").verify(token) == nil)
        #expect(tokens.verify("not-a-token") == nil)
        let key = try await warden.runtime.keys.currentKey(for: .rs256)
        #expect(tokens.verify(try key.sign(payload: #"{"tx":"dtx_1","dai":"dev_1"}"#)) == nil)
    }
}
