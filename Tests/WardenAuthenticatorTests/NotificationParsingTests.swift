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
        #expect(AuthenticationNotification(payload: original.fields) == original)
    }

    @Test func aConsentRequestHasAConsentIDAndItsClientInTheTitle() throws {
        let notification = try #require(AuthenticationNotification(userInfo: Self.apns))
        #expect(notification.kind == .consent)
        #expect(notification.alert == .init(title: "Warden", body: "Confirm payment of 2500"))
        #expect(notification.clientName == "Warden")
    }
}

/// SPEC §12: a login transaction is pushed with the §7.2 fields without `txlnkid`, `s` and `l` when known, and the
/// alert "{issuer label}: sign in" / "Sign in to {client name}"; the §7.5 listing carries the same alert as
/// Warden's `alert` extension.
@Suite struct SignInRequestParsingTests {
    static var mfa: [String: Any] {
        var mfa = NotificationParsingTests.mfa
        mfa["txlnkid"] = nil
        return mfa
    }

    static let alert = ["title": "Warden: sign in", "body": "Sign in to Bank app"]

    static var apns: [String: Any] {
        [
            "aps": [
                "alert": alert, "category": "com.auth0.notification.authentication", "sound": "default",
            ] as [String: Any],
            "mfa": mfa,
        ]
    }

    func expectSignIn(_ notification: AuthenticationNotification?, alert: Bool = true) throws {
        let notification = try #require(notification)
        #expect(notification.kind == .signIn)
        #expect(notification.transactionLinkingID == nil)
        #expect(notification.enrollmentID == "dev_abc123")
        #expect(notification.challenge == "challenge-xyz")
        #expect(notification.source?.browser?.name == "Firefox")
        #expect(notification.source?.operatingSystem?.name == "Linux")
        #expect(notification.location?.name == "Amsterdam, NL")
        #expect(notification.bindingMessage == nil, "the body of a sign-in request is no binding message")
        if alert {
            #expect(notification.alert == .init(title: "Warden: sign in", body: "Sign in to Bank app"))
            #expect(notification.clientName == "Bank app")
        } else {
            #expect(notification.alert == nil)
            #expect(notification.clientName == nil)
        }
    }

    @Test func apnsUserInfo() throws {
        try expectSignIn(AuthenticationNotification(userInfo: Self.apns))
    }

    @Test func fcmData() throws {
        let data = Self.mfa.mapValues { value in
            value as? String ?? String(decoding: json(value), as: UTF8.self)
        }
        try expectSignIn(AuthenticationNotification(data: data), alert: false)
    }

    @Test func webhookBody() throws {
        var body = Self.apns
        body["device"] = ["id": "dev_abc123", "service": "WEBHOOK", "token": "https://hooks.example/warden"]
        try expectSignIn(AuthenticationNotification(json: json(body)))
    }

    @Test func listingObjectsOfBothKinds() throws {
        var signIn = Self.mfa
        signIn["alert"] = Self.alert
        try expectSignIn(AuthenticationNotification(json: json(signIn)))

        var consent = NotificationParsingTests.mfa
        consent["alert"] = ["title": "Bank app", "body": "Pay 10 EUR"]
        let notification = try #require(AuthenticationNotification(json: json(consent)))
        #expect(notification.kind == .consent)
        #expect(notification.clientName == "Bank app")
        #expect(notification.bindingMessage == "Pay 10 EUR")
        #expect(AuthenticationNotification(payload: notification.fields) == notification)
    }

    @Test(
        "the client is read from the body \"Sign in to {client}\", in any case, without trailing punctuation",
        arguments: [
            ("Sign in to Bank app", "Bank app"), ("  sign in to  Bank app?  ", "Bank app"),
            ("SIGN IN TO Sign in to X.", "Sign in to X"), ("Sign in to ", nil), ("Sign in to ?", nil),
            ("Anmelden bei Bank app", nil), ("Sign into Bank app", nil),
        ] as [(String, String?)])
    func clientName(body: String, expected: String?) throws {
        var notification = try #require(AuthenticationNotification(userInfo: Self.apns))
        notification.alert = .init(title: nil, body: body)
        #expect(notification.clientName == expected)
    }
}
