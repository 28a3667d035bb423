import Foundation
import Testing
import WardenAuthenticator

@Suite struct NotificationParsingTests {
    static var mfa: [String: Any] {
        [
            "dai": "dev_abc123", "txtkn": "txtkn_opaque", "c": "challenge-xyz", "d": "2024-05-01T12:00:00.123Z",
            "sh": "warden.example:8443", "txlnkid": "cns_42",
            "s": ["b": ["n": "Firefox", "v": "126.0"], "os": ["n": "Linux", "v": "6.8"]],
            "l": ["n": "Amsterdam, NL", "lat": "52.37", "long": 4.89],
        ]
    }

    static var apns: [AnyHashable: Any] {
        [
            "aps": [
                "alert": ["title": "Warden", "body": "Confirm payment of 2500"],
                "category": "com.auth0.notification.authentication", "sound": "default",
            ] as [String: Any],
            "mfa": mfa,
        ]
    }

    static let started = Date(timeIntervalSince1970: 1_714_564_800.123)

    func expectFull(_ notification: AuthenticationNotification?) throws {
        let notification = try #require(notification)
        #expect(notification.enrollmentID == "dev_abc123")
        #expect(notification.transactionToken == "txtkn_opaque")
        #expect(notification.challenge == "challenge-xyz")
        #expect(abs(notification.startedAt.timeIntervalSince(Self.started)) < 0.001)
        #expect(notification.issuerHost == "warden.example:8443")
        #expect(notification.transactionLinkingID == "cns_42")
        #expect(notification.source?.browser?.name == "Firefox")
        #expect(notification.source?.browser?.version == "126.0")
        #expect(notification.source?.operatingSystem?.name == "Linux")
        #expect(notification.location?.name == "Amsterdam, NL")
        #expect(notification.location?.latitude == 52.37)
        #expect(notification.location?.longitude == 4.89)
    }

    @Test func apnsUserInfo() throws {
        let notification = AuthenticationNotification(userInfo: Self.apns)
        try expectFull(notification)
        #expect(notification?.bindingMessage == "Confirm payment of 2500")
    }

    @Test func apnsWithoutOptionalFields() throws {
        var mfa = Self.mfa
        for key in ["txlnkid", "s", "l"] { mfa[key] = nil }
        let notification = try #require(
            AuthenticationNotification(userInfo: ["aps": [:] as [String: Any], "mfa": mfa]))
        #expect(notification.transactionLinkingID == nil)
        #expect(notification.source == nil)
        #expect(notification.location == nil)
        #expect(notification.bindingMessage == nil)
    }

    @Test(arguments: ["dai", "txtkn", "c", "d", "sh"])
    func apnsMissingRequiredField(_ field: String) {
        var mfa = Self.mfa
        mfa[field] = nil
        #expect(AuthenticationNotification(userInfo: ["aps": [:] as [String: Any], "mfa": mfa]) == nil)
    }

    @Test func apnsGarbage() {
        #expect(AuthenticationNotification(userInfo: [:]) == nil)
        #expect(AuthenticationNotification(userInfo: ["aps": ["alert": "hello"]]) == nil)
        #expect(AuthenticationNotification(userInfo: ["mfa": "not json"]) == nil)
        #expect(AuthenticationNotification(userInfo: ["mfa": 42]) == nil)
        var wrongType = Self.mfa
        wrongType["c"] = 12
        #expect(AuthenticationNotification(userInfo: ["mfa": wrongType]) == nil)
        var badDate = Self.mfa
        badDate["d"] = "yesterday"
        #expect(AuthenticationNotification(userInfo: ["mfa": badDate]) == nil)
        var otherCategory = Self.apns
        otherCategory["aps"] = ["category": "com.example.chat"]
        #expect(AuthenticationNotification(userInfo: otherCategory) == nil)
    }

    @Test func fcmData() throws {
        let data: [String: String] = [
            "dai": "dev_abc123", "txtkn": "txtkn_opaque", "c": "challenge-xyz", "d": "2024-05-01T12:00:00.123Z",
            "sh": "warden.example:8443", "txlnkid": "cns_42",
            "s": #"{"b":{"n":"Firefox","v":"126.0"},"os":{"n":"Linux","v":"6.8"}}"#,
            "l": #"{"n":"Amsterdam, NL","lat":"52.37","long":4.89}"#,
        ]
        try expectFull(AuthenticationNotification(data: data))
    }

    @Test func fcmMissingAndGarbage() throws {
        #expect(AuthenticationNotification(data: [:]) == nil)
        #expect(AuthenticationNotification(data: ["message": "hello"]) == nil)
        let minimal: [String: String] = [
            "dai": "dev_1", "txtkn": "t", "c": "c", "d": "2024-05-01T12:00:00.000Z", "sh": "h", "s": "{garbage",
        ]
        let notification = try #require(AuthenticationNotification(data: minimal))
        #expect(notification.source == nil)
        var noChallenge = minimal
        noChallenge["c"] = ""
        #expect(AuthenticationNotification(data: noChallenge) == nil)
    }

    @Test func webhookBody() throws {
        var body = Self.apns
        body["device"] = ["id": "dev_abc123", "service": "WEBHOOK", "token": "https://hooks.example/warden"]
        let data = json(Dictionary(uniqueKeysWithValues: body.map { ($0.key.base as! String, $0.value) }))
        let notification = AuthenticationNotification(json: data)
        try expectFull(notification)
        #expect(notification?.bindingMessage == "Confirm payment of 2500")
    }

    @Test func bareFieldsObject() throws {
        try expectFull(AuthenticationNotification(json: json(Self.mfa)))
    }

    @Test func jsonGarbage() {
        #expect(AuthenticationNotification(json: Data("not json".utf8)) == nil)
        #expect(AuthenticationNotification(json: Data("[1,2]".utf8)) == nil)
        #expect(AuthenticationNotification(json: Data("{}".utf8)) == nil)
        #expect(AuthenticationNotification(json: Data(#"{"mfa": {"dai": 1}}"#.utf8)) == nil)
    }

    @Test func fieldsRoundTrip() throws {
        let original = try #require(AuthenticationNotification(userInfo: Self.apns))
        var again = try #require(AuthenticationNotification(payload: original.fields))
        again.bindingMessage = original.bindingMessage
        #expect(again == original)
    }
}
