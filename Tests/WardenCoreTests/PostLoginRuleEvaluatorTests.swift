import Foundation
import Testing
import WardenWire

@testable import WardenCore

/// Post-login rule conditions over a login event (SPEC §8 "Post-login rules"): every path, the truth tables of
/// the operators, and the rules the SPEC has in mind.
@Suite struct PostLoginRuleEvaluatorTests {
    static let browser = LoginEvent.RequestInfo(
        ip: "203.0.113.7", asn: 64496, userAgent: "Mozilla/5.0", countryCode: "FR")
    static let phone = LoginEvent.RequestInfo(ip: "198.51.100.1", asn: 64500, userAgent: "App/1.0", countryCode: "DE")

    static let user: User = {
        var user = User(userID: "auth0|ann", email: "ann@example.com", createdAt: Date(timeIntervalSince1970: 0))
        user.emailVerified = true
        user.appMetadata = ["plan": "pro", "tags": ["a", "b"], "nested": ["x": 1], "gone": nil]
        user.userMetadata = ["locale": "fr"]
        return user
    }()

    static let client: Client = {
        var client = Client(clientID: "web-app", name: "Web")
        client.appType = .regularWeb
        return client
    }()

    /// A password (or SSO session) login: no session transfer token.
    static let password = LoginEvent(request: browser, user: user, client: client)
    /// A login by a session transfer token the native app made from `phone`.
    static let transfer = LoginEvent(
        request: browser,
        sessionTransferToken: .init(clientID: "native-app", scope: ["openid", "offline_access"], request: phone),
        user: user, client: client)
    /// A login about which nothing optional is known.
    static let bare = LoginEvent(
        request: .init(ip: nil), user: User(userID: "auth0|bob", email: nil, createdAt: Date()),
        client: Client(clientID: "c", name: "C"))

    private static func value(_ condition: String, in event: LoginEvent) throws -> JSONValue {
        RuleEvaluator(event: event).value(of: try RuleParser.parse(condition))
    }

    private static func matches(_ condition: String, in event: LoginEvent = password) throws -> Bool {
        RuleEvaluator(event: event).matches(try RuleParser.parse(condition))
    }

    static let paths: [(String, JSONValue, JSONValue)] = [
        // path, on `password`, on `transfer`
        ("request.ip", "203.0.113.7", "203.0.113.7"),
        ("request.asn", 64496, 64496),
        ("request.user_agent", "Mozilla/5.0", "Mozilla/5.0"),
        ("request.geoip.countryCode", "FR", "FR"),
        (
            "session_transfer_token", nil,
            [
                "client_id": "native-app", "scope": ["openid", "offline_access"],
                "request": [
                    "ip": "198.51.100.1", "asn": 64500, "user_agent": "App/1.0", "geoip": ["countryCode": "DE"],
                ],
            ]
        ),
        ("session_transfer_token.client_id", nil, "native-app"),
        ("session_transfer_token.scope", nil, ["openid", "offline_access"]),
        ("session_transfer_token.request.ip", nil, "198.51.100.1"),
        ("session_transfer_token.request.asn", nil, 64500),
        ("session_transfer_token.request.user_agent", nil, "App/1.0"),
        ("session_transfer_token.request.geoip.countryCode", nil, "DE"),
        ("user.user_id", "auth0|ann", "auth0|ann"),
        ("user.email", "ann@example.com", "ann@example.com"),
        ("user.email_verified", true, true),
        (
            "user.app_metadata", ["plan": "pro", "tags": ["a", "b"], "nested": ["x": 1], "gone": nil],
            ["plan": "pro", "tags": ["a", "b"], "nested": ["x": 1], "gone": nil]
        ),
        ("user.app_metadata.plan", "pro", "pro"),
        ("user.app_metadata.nested.x", 1, 1),
        ("user.app_metadata.plan.deeper", nil, nil),
        ("user.app_metadata.missing", nil, nil),
        ("user.user_metadata", ["locale": "fr"], ["locale": "fr"]),
        ("user.user_metadata.locale", "fr", "fr"),
        ("client.client_id", "web-app", "web-app"),
        ("client.name", "Web", "Web"),
        ("client.app_type", "regular_web", "regular_web"),
    ]

    @Test(arguments: paths)
    func pathResolution(path: String, onPassword: JSONValue, onTransfer: JSONValue) throws {
        #expect(try Self.value("event." + path, in: Self.password) == onPassword)
        #expect(try Self.value("event." + path, in: Self.transfer) == onTransfer)
        #expect(try Self.value("exists(event.\(path))", in: Self.password) == .bool(onPassword != .null))
        #expect(try Self.value("exists(event.\(path))", in: Self.transfer) == .bool(onTransfer != .null))
    }

    @Test func unknownValuesAreNull() throws {
        for path in [
            "request.ip", "request.asn", "request.user_agent", "request.geoip.countryCode", "user.email",
            "client.app_type", "user.app_metadata.plan",
        ] {
            #expect(try Self.value("event." + path, in: Self.bare) == .null, "\(path)")
        }
        #expect(try Self.value("event.user.app_metadata", in: Self.bare) == [:])
        #expect(try Self.value("event.user.email_verified", in: Self.bare) == false)
    }

    static let truthTable: [(String, Bool)] = [
        // == and != need the same type
        (#""a" == "a""#, true), (#""a" == "b""#, false), (#""a" != "b""#, true), (#""a" != "a""#, false),
        ("1 == 1.0", true), ("1 != 2", true), ("true == true", true), ("true != false", true),
        ("null == null", true), ("null != null", false),
        (#"1 == "1""#, false), (#"1 != "1""#, false), (#"null == "x""#, false), (#"null != "x""#, false),
        ("false == null", false), ("false != null", false), ("[] == []", true), (#"[1, "a"] == [1, "a"]"#, true),
        ("[1, 2] == [2, 1]", false), ("[1] != [2]", true), ("[1] != 1", false),
        ("event.user.app_metadata.nested == event.user.app_metadata.nested", true),
        (#"event.user.app_metadata.tags == ["a", "b"]"#, true),
        // in needs an array on the right, and an element of the same type
        (#""a" in ["a", "b"]"#, true), (#""c" in ["a", "b"]"#, false), (#"1 in ["1"]"#, false), ("1 in [1]", true),
        ("null in [null]", true), ("null in []", false), (#""a" in event.user.app_metadata.tags"#, true),
        (#""FR" in event.request.geoip.countryCode"#, false), (#""a" in event.user.app_metadata.missing"#, false),
        (#"["a"] in ["a"]"#, false),
        // ! && || take anything but true as false
        ("!true", false), ("!false", true), ("!null", true), (#"!"x""#, true), ("!1", true), ("![]", true),
        ("true && true", true), ("true && false", false), ("true && null", false), ("false && true", false),
        ("null && null", false), (#"true && "yes""#, false), ("true && true && true", true),
        ("true || false", true), ("false || true", true), ("false || false", false), ("null || false", false),
        ("null || true", true), (#""yes" || false"#, false), ("false || false || true", true),
        // a bare value matches only when it is true
        ("true", true), ("false", false), ("null", false), (#""true""#, false), ("1", false),
        ("event.user.email_verified", true), ("!event.user.email_verified", false),
        // precedence: ! before ==, == before &&, && before ||
        ("!false == true", true), ("!(false == true)", true), ("!true == false", true),
        ("true || true && false", true), ("(true || true) && false", false), ("1 == 1 && 2 == 2", true),
        ("1 == 2 || 2 == 2", true),
    ]

    @Test(arguments: truthTable)
    func operators(condition: String, expected: Bool) throws {
        #expect(try Self.matches(condition) == expected)
    }

    @Test("a rule denying a country mismatch between the session transfer token and the login")
    func countryMismatch() throws {
        let rule = "event.request.geoip.countryCode != event.session_transfer_token.request.geoip.countryCode"
        #expect(try Self.matches(rule, in: Self.transfer), "FR here, DE where the token was made")
        var sameCountry = Self.transfer
        sameCountry.sessionTransferToken?.request.countryCode = "FR"
        #expect(try !Self.matches(rule, in: sameCountry))
        #expect(try !Self.matches(rule, in: Self.password), "no token: nothing to compare")
        var unknownCountry = Self.transfer
        unknownCountry.request.countryCode = nil
        #expect(try !Self.matches(rule, in: unknownCountry), "no IP database: nothing to compare")
    }

    @Test func rulesAnOperatorWouldWrite() throws {
        let cases: [(String, LoginEvent, Bool)] = [
            (#"event.user.email == "ann@example.com""#, Self.password, true),
            (#"event.client.client_id == "web-app" && !event.user.email_verified"#, Self.password, false),
            (
                #"exists(event.session_transfer_token) && event.session_transfer_token.client_id != "native-app""#,
                Self.transfer, false
            ),
            (#"event.session_transfer_token.request.asn != event.request.asn"#, Self.transfer, true),
            (#"event.session_transfer_token.request.ip != event.request.ip"#, Self.transfer, true),
            (#"event.request.user_agent == event.session_transfer_token.request.user_agent"#, Self.transfer, false),
            (#""offline_access" in event.session_transfer_token.scope"#, Self.transfer, true),
            (#"event.request.geoip.countryCode in ["KP", "IR"]"#, Self.password, false),
            (#"!(event.request.geoip.countryCode in ["FR", "DE"])"#, Self.password, false),
            (#"event.user.app_metadata.plan != "pro" || event.user.user_metadata.locale == "fr""#, Self.password, true),
            (#"event.client.app_type == "spa""#, Self.bare, false),
        ]
        for (condition, event, expected) in cases {
            #expect(try Self.matches(condition, in: event) == expected, "\(condition)")
        }
    }

    /// The README's rule reference: `!=` against a missing value (`null`) is false, so a rule that must deny an
    /// unknown country tests presence; the README's example, run on a known, another and an unknown country.
    @Test func theReadmeExampleDeniesAnUnknownCountry() throws {
        #expect(try !Self.matches(#"event.request.geoip.countryCode != "FR""#, in: Self.bare))
        #expect(try !Self.matches("event.request.geoip.countryCode != null", in: Self.password))
        let example = #"!exists(event.request.geoip.countryCode) || event.request.geoip.countryCode != "FR""#
        #expect(try !Self.matches(example, in: Self.password), "FR is allowed")
        let german = LoginEvent(request: Self.phone, user: Self.user, client: Self.client)
        #expect(try Self.matches(example, in: german), "DE is denied")
        #expect(try Self.matches(example, in: Self.bare), "an unknown country is denied")
    }
}
