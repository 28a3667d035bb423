import Testing
import WardenWire

@testable import WardenCore

/// The condition language of post-login rules (SPEC §8 "Post-login rules"): what parses, into which tree, and
/// the exact message, naming the position, of what does not.
@Suite struct PostLoginRuleParserTests {
    /// `event.` + `dotted`, known to be a valid path.
    private static func at(_ dotted: String) -> RulePath {
        RulePath(segments: dotted.split(separator: ".").map(String.init))!
    }

    private static func path(_ dotted: String) -> RuleExpression { .path(at(dotted)) }

    private static let email = path("user.email")
    private static let verified = path("user.email_verified")
    private static let country = path("request.geoip.countryCode")
    private static let transferCountry = path("session_transfer_token.request.geoip.countryCode")

    private static func string(_ text: String) -> RuleExpression { .literal(.string(text)) }

    static let valid: [(String, RuleExpression)] = [
        (#"event.user.email == "ann@example.com""#, .comparison(email, .equal, string("ann@example.com"))),
        (
            "event.request.geoip.countryCode != event.session_transfer_token.request.geoip.countryCode",
            .comparison(country, .notEqual, transferCountry)
        ),
        (
            #"event.request.geoip.countryCode in ["US","DE"]"#,
            .comparison(country, .in, .literal(["US", "DE"]))
        ),
        (
            #""openid" in event.session_transfer_token.scope"#,
            .comparison(string("openid"), .in, path("session_transfer_token.scope"))
        ),
        ("!event.user.email_verified", .not(verified)),
        ("!event.user.email_verified == true", .comparison(.not(verified), .equal, .literal(true))),
        ("!!true", .not(.not(.literal(true)))),
        ("true && false || null", .or([.and([.literal(true), .literal(false)]), .literal(.null)])),
        ("true || false && null", .or([.literal(true), .and([.literal(false), .literal(.null)])])),
        ("(true || false) && null", .and([.or([.literal(true), .literal(false)]), .literal(.null)])),
        ("true && (false && null)", .and([.literal(true), .literal(false), .literal(.null)])),
        ("(true || false) || null", .or([.literal(true), .literal(false), .literal(.null)])),
        ("((true))", .literal(true)),
        ("exists(event.session_transfer_token)", .exists(at("session_transfer_token"))),
        ("exists ( event.user.app_metadata.plan )", .exists(at("user.app_metadata.plan"))),
        (
            #"event.user.app_metadata.plan == "pro" && event.user.user_metadata.tier-2_x == 2"#,
            .and([
                .comparison(path("user.app_metadata.plan"), .equal, string("pro")),
                .comparison(path("user.user_metadata.tier-2_x"), .equal, .literal(2)),
            ])
        ),
        ("event.request.asn == 64496", .comparison(path("request.asn"), .equal, .literal(64496))),
        ("-1.5e3 == 0.25", .comparison(.literal(-1500), .equal, .literal(0.25))),
        ("1E+2 != 0", .comparison(.literal(100), .notEqual, .literal(0))),
        (#""say \"hi\" \\ \/ \u00e9\n\t\r\b\f""#, string("say \"hi\" \\ / é\n\t\r\u{8}\u{C}")),
        ("[]", .literal([])),
        (#"[1, "a", true, false, null]"#, .literal([1, "a", true, false, nil])),
        ("\tnull\n", .literal(.null)),
        (
            "event.client.app_type in [\"spa\", \"native\"]",
            .comparison(path("client.app_type"), .in, .literal(["spa", "native"]))
        ),
    ]

    @Test(arguments: valid)
    func parses(condition: String, expected: RuleExpression) throws {
        #expect(try RuleParser.parse(condition) == expected)
    }

    @Test(
        "every path SPEC §8 lists parses",
        arguments: [
            "request.ip", "request.asn", "request.user_agent", "request.geoip.countryCode", "session_transfer_token",
            "session_transfer_token.client_id", "session_transfer_token.scope", "session_transfer_token.request.ip",
            "session_transfer_token.request.asn", "session_transfer_token.request.user_agent",
            "session_transfer_token.request.geoip.countryCode", "user.user_id", "user.email", "user.email_verified",
            "user.app_metadata", "user.app_metadata.a.b.c", "user.user_metadata", "user.user_metadata.x",
            "client.client_id", "client.name", "client.app_type",
        ])
    func everyPath(dotted: String) throws {
        #expect(try RuleParser.parse("exists(event.\(dotted))") == .exists(Self.at(dotted)))
    }

    static let invalid: [(String, String)] = [
        ("", "expected a literal, a path, '!', '(' or 'exists' at position 1"),
        ("   ", "expected a literal, a path, '!', '(' or 'exists' at position 4"),
        (#"(event.user.email == "x""#, "expected ')' at position 25"),
        (#"(event.user.email "x")"#, "expected ')' at position 19"),
        (#"event.user.email = "x""#, "expected '==' at position 18"),
        ("true & false", "expected '&&' at position 6"),
        ("true | false", "expected '||' at position 6"),
        ("true ||", "expected a literal, a path, '!', '(' or 'exists' at position 8"),
        ("true true", "expected an operator or the end of the condition at position 6"),
        (")", "expected a literal, a path, '!', '(' or 'exists' at position 1"),
        ("1 == 1 == 1", "expected '&&' or '||' at position 8: comparisons do not chain"),
        ("1 == 1 in [1]", "expected '&&' or '||' at position 8: comparisons do not chain"),
        (#""US" in "US""#, "expected an array or a path after 'in' at position 9"),
        ("1 in (2)", "expected an array or a path after 'in' at position 6"),
        (#"event.usr.email == "x""#, "unknown path 'event.usr.email' at position 1"),
        ("event.user", "unknown path 'event.user' at position 1"),
        ("event", "unknown path 'event' at position 1"),
        ("event.user.name", "unknown path 'event.user.name' at position 1"),
        ("event.user.", "expected a name after '.' at position 12"),
        ("event..user", "expected a name after '.' at position 7"),
        (
            "foo == 1",
            "unknown name 'foo' at position 1: expected a literal, a path, '!', '(' or 'exists'; paths start with "
                + "'event.'"
        ),
        (#""abc"#, #"expected '"' at position 5: the string at position 1 is not closed"#),
        (#""a\qb""#, #"unknown escape '\q' at position 3"#),
        (#""\u12""#, #"expected four hexadecimal digits of a character after '\u' at position 4"#),
        (#""\"#, "expected an escaped character at position 3"),
        ("\"a\u{1}\"", "unexpected control character U+0001 at position 3"),
        ("[1, ]", "expected a literal at position 5"),
        ("[1 2]", "expected ',' or ']' at position 4"),
        ("[event.user.email]", "expected a literal at position 2"),
        ("[x]", "unknown name 'x' at position 2: expected a literal; paths start with 'event.'"),
        ("exists(1)", "expected a path at position 8"),
        ("exists event.user.email", "expected '(' at position 8"),
        ("exists(event.user.email", "expected ')' at position 24"),
        ("exists(foo)", "unknown path 'foo' at position 8"),
        ("#", "unexpected character '#' at position 1"),
        ("'x'", "unexpected character ''' at position 1"),
        ("-x", "expected a digit at position 2"),
        ("1.", "expected a digit at position 3"),
        ("1e", "expected a digit at position 3"),
        ("1e999", "number out of range at position 1"),
        (
            #""日本" == x"#,
            "unknown name 'x' at position 9: expected a literal, a path, '!', '(' or 'exists'; paths start with 'event.'"
        ),
    ]

    @Test(arguments: invalid)
    func refuses(condition: String, message: String) throws {
        let error = try #require(throws: RuleSyntaxError.self) { try RuleParser.parse(condition) }
        #expect(error.message == message)
        #expect("\(error)" == message)
    }

    @Test func nestingIsLimited() throws {
        let depth = RuleParser.maximumDepth
        let deepest = String(repeating: "(", count: depth) + "true" + String(repeating: ")", count: depth)
        #expect(try RuleParser.parse(deepest) == .literal(true))
        let negations = String(repeating: "!(", count: depth / 2) + "!true" + String(repeating: ")", count: depth / 2)
        let error = try #require(throws: RuleSyntaxError.self) { try RuleParser.parse(negations) }
        #expect(error.message == "nesting deeper than 32 parentheses and negations at position 33")
        #expect(error.position == depth + 1)
    }

    @Test func longConditionsAreRefusedButLongChainsAreFlat() throws {
        let error = try #require(throws: RuleSyntaxError.self) {
            try RuleParser.parse(String(repeating: " ", count: RuleParser.maximumLength + 1))
        }
        #expect(error.message == "condition longer than 4096 characters at position 4097")
        let chain = Array(repeating: "true", count: 600).joined(separator: "&&")
        #expect(try RuleParser.parse(chain) == .and(Array(repeating: .literal(true), count: 600)))
        let alternatives = Array(repeating: "(false)", count: 300).joined(separator: " || ")
        #expect(try RuleParser.parse(alternatives) == .or(Array(repeating: .literal(false), count: 300)))
    }
}
