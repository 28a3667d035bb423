import Testing
import WardenWire

@testable import WardenCore

@Suite struct UserQueryParserTests {
    private static func field(_ name: String) -> UserQueryField {
        // The names in these tables are valid; a mistake in one fails every test that uses it.
        try! UserQueryField(named: name, at: 1)
    }

    private static func bare(_ value: String) -> UserQuery {
        .term(field: nil, value: .exact(value))
    }

    static let valid: [(String, UserQuery)] = [
        ("", .matchAll),
        ("  \t\n", .matchAll),
        ("*", .matchAll),
        ("email:jane@example.com", .term(field: .email, value: .exact("jane@example.com"))),
        ("email:JANE@Example.com", .term(field: .email, value: .exact("JANE@Example.com"))),
        ("email:a+tag@x.io", .term(field: .email, value: .exact("a+tag@x.io"))),
        ("name: jane", .term(field: .name, value: .exact("jane"))),
        (#"name:"Jane Smith""#, .term(field: .name, value: .exact("Jane Smith"))),
        (#"name:"say \"hi\" \\ bye""#, .term(field: .name, value: .exact(#"say "hi" \ bye"#))),
        (#"name:John\ Smith"#, .term(field: .name, value: .exact("John Smith"))),
        ("name:jan*", .term(field: .name, value: .prefix("jan"))),
        (#"name:jan\*"#, .term(field: .name, value: .exact("jan*"))),
        (#"name:"jan*""#, .term(field: .name, value: .exact("jan*"))),
        ("name:*", .exists(.name)),
        ("nickname:a-b!", .term(field: .nickname, value: .exact("a-b!"))),
        ("user_id:auth0|123", .term(field: .userID, value: .exact("auth0|123"))),
        (#"user_id:samlp\:x"#, .term(field: .userID, value: .exact("samlp:x"))),
        ("email_verified:true", .term(field: .emailVerified, value: .exact("true"))),
        (#"blocked:"false""#, .term(field: .blocked, value: .exact("false"))),
        ("_exists_:nickname", .exists(.nickname)),
        ("_exists_:user_metadata.plan", .exists(field("user_metadata.plan"))),
        (
            "user_metadata.address.city:Paris",
            .term(field: field("user_metadata.address.city"), value: .exact("Paris"))
        ),
        ("app_metadata.tier-2_x:1", .term(field: field("app_metadata.tier-2_x"), value: .exact("1"))),
        (#"user_metadata.note:"a:b (c)""#, .term(field: field("user_metadata.note"), value: .exact("a:b (c)"))),
        ("jane", bare("jane")),
        ("jan*", .term(field: nil, value: .prefix("jan"))),
        (#""jane smith""#, bare("jane smith")),
        ("and or not", .and([bare("and"), bare("or"), bare("not")])),
        ("a b", .and([bare("a"), bare("b")])),
        ("a AND b", .and([bare("a"), bare("b")])),
        ("a && b", .and([bare("a"), bare("b")])),
        ("a OR b", .or([bare("a"), bare("b")])),
        ("a || b", .or([bare("a"), bare("b")])),
        ("a OR b c", .or([bare("a"), .and([bare("b"), bare("c")])])),
        ("a b OR c", .or([.and([bare("a"), bare("b")]), bare("c")])),
        ("a AND b OR c AND d", .or([.and([bare("a"), bare("b")]), .and([bare("c"), bare("d")])])),
        ("(a OR b) c", .and([.or([bare("a"), bare("b")]), bare("c")])),
        ("a AND (b AND c)", .and([bare("a"), bare("b"), bare("c")])),
        ("(a OR b) OR c", .or([bare("a"), bare("b"), bare("c")])),
        ("((a))", bare("a")),
        ("NOT a", .not(bare("a"))),
        ("NOT a b", .and([.not(bare("a")), bare("b")])),
        ("a NOT b", .and([bare("a"), .not(bare("b"))])),
        ("a OR NOT b", .or([bare("a"), .not(bare("b"))])),
        ("NOT NOT a", .not(.not(bare("a")))),
        ("NOT(a OR b)", .not(.or([bare("a"), bare("b")]))),
        ("-a", .not(bare("a"))),
        ("!a", .not(bare("a"))),
        ("+a +b", .and([bare("a"), bare("b")])),
        ("a -b", .and([bare("a"), .not(bare("b"))])),
        (
            "email:(a OR b)",
            .or([.term(field: .email, value: .exact("a")), .term(field: .email, value: .exact("b"))])
        ),
        (
            "email:(a name:b*)",
            .and([.term(field: .email, value: .exact("a")), .term(field: .name, value: .prefix("b"))])
        ),
        (
            "email_verified:true AND NOT blocked:true",
            .and([
                .term(field: .emailVerified, value: .exact("true")),
                .not(.term(field: .blocked, value: .exact("true"))),
            ])
        ),
        ("* OR a", .or([.matchAll, bare("a")])),
    ]

    @Test(arguments: valid)
    func parses(query: String, expected: UserQuery) throws {
        #expect(try UserQueryParser.parse(query) == expected)
    }

    static let invalid: [(String, UserQueryError.Code, String)] = [
        ("email:x)", .unexpectedToken, "Unexpected ')' at position 8"),
        ("(email:x", .unexpectedToken, "Unexpected end of query at position 9"),
        ("email:", .unexpectedToken, "Unexpected end of query at position 7"),
        ("a AND", .unexpectedToken, "Unexpected end of query at position 6"),
        ("AND a", .unexpectedToken, "Unexpected 'AND' at position 1"),
        ("a OR OR b", .unexpectedToken, "Unexpected 'OR' at position 6"),
        ("()", .unexpectedToken, "Unexpected ')' at position 2"),
        ("email:a:b", .unexpectedToken, "Unexpected ':' at position 8"),
        (#""a":b"#, .unexpectedToken, "Unexpected ':' at position 4"),
        ("user_id:-abc", .unexpectedToken, "Unexpected '-' at position 9"),
        ("email:AND", .unexpectedToken, "Unexpected 'AND' at position 7"),
        ("_exists_:(email)", .unexpectedToken, "Unexpected '(' at position 10"),
        ("name:a\u{0}b", .unexpectedToken, "Unexpected control character U+0000 at position 7"),
        (#"name:"abc"#, .unterminatedPhrase, "Unterminated quoted phrase starting at position 6"),
        (#"name:abc\"#, .unterminatedPhrase, #"Nothing to escape after '\' at position 9"#),
        ("foo:bar", .unknownField, "Unknown field 'foo' at position 1"),
        ("a (Email:x)", .unknownField, "Unknown field 'Email' at position 4"),
        ("email.x:y", .unknownField, "Unknown field 'email.x' at position 1"),
        ("email*:y", .unknownField, "Unknown field 'email*' at position 1"),
        ("_exists_:foo", .unknownField, "Unknown field 'foo' at position 10"),
        ("_exists_:email*", .unknownField, "Unknown field 'email*' at position 10"),
        (
            "user_metadata:x", .unknownField,
            "Field 'user_metadata' needs a path at position 1: e.g. 'user_metadata.plan'"
        ),
        (
            "user_metadata.a..b:x", .unknownField,
            "Invalid field 'user_metadata.a..b' at position 1: "
                + "path segments are non-empty and use only letters, digits, '_' and '-'"
        ),
        (
            "app_metadata.a$b:x", .unknownField,
            "Invalid field 'app_metadata.a$b' at position 1: "
                + "path segments are non-empty and use only letters, digits, '_' and '-'"
        ),
        ("blocked:yes", .invalidValue, "Field 'blocked' takes true or false, not 'yes' at position 9"),
        ("blocked:TRUE", .invalidValue, "Field 'blocked' takes true or false, not 'TRUE' at position 9"),
        (
            "email_verified:tr*", .invalidValue,
            "Field 'email_verified' takes true or false, not 'tr*' at position 16"
        ),
        (
            "blocked:(true OR no)", .invalidValue,
            "Field 'blocked' takes true or false, not 'no' at position 18"
        ),
        ("name:*ohn", .invalidValue, "Wildcard '*' is only supported at the end of a value at position 6"),
        ("name:j*n", .invalidValue, "Wildcard '*' is only supported at the end of a value at position 7"),
        ("j**", .invalidValue, "Wildcard '*' is only supported at the end of a value at position 2"),
        (
            "name:jo?n", .unsupportedSyntax,
            #"Unsupported character '?' at position 8: escape it with '\' or quote the value"#
        ),
        (
            "name:[a TO b]", .unsupportedSyntax,
            #"Unsupported character '[' at position 6: escape it with '\' or quote the value"#
        ),
        (
            "name:jane~", .unsupportedSyntax,
            #"Unsupported character '~' at position 10: escape it with '\' or quote the value"#
        ),
        (
            "name:jane^2", .unsupportedSyntax,
            #"Unsupported character '^' at position 10: escape it with '\' or quote the value"#
        ),
        (
            "name:/ja.e/", .unsupportedSyntax,
            #"Unsupported character '/' at position 6: escape it with '\' or quote the value"#
        ),
    ]

    @Test(arguments: invalid)
    func rejects(query: String, code: UserQueryError.Code, message: String) {
        let error = #expect(throws: UserQueryError.self) { try UserQueryParser.parse(query) }
        #expect(error?.code == code)
        #expect(error?.message == message)
        #expect(error?.description == message)
    }

    @Test func positionsCountUnicodeScalars() {
        let precomposed = #expect(throws: UserQueryError.self) { try UserQueryParser.parse("name:\"\u{E9}\" )") }
        #expect(precomposed?.position == 10)
        let combining = #expect(throws: UserQueryError.self) { try UserQueryParser.parse("name:\"e\u{301}\" )") }
        #expect(combining?.position == 11)
    }

    @Test func lengthLimit() throws {
        let longest = String(repeating: "a", count: UserQueryParser.maximumLength)
        #expect(try UserQueryParser.parse(longest) == Self.bare(longest))
        let error = #expect(throws: UserQueryError.self) { try UserQueryParser.parse(longest + "a") }
        #expect(error?.code == .queryTooLong)
        #expect(error?.message == "Query is longer than 2000 characters")
        #expect(error?.position == nil)
    }

    @Test(arguments: [("(", ")"), ("NOT (", ")"), ("NOT ", ""), ("-", ""), ("+", ""), ("email:(", ")")])
    func depthLimit(open: String, close: String) throws {
        let depth = UserQueryParser.maximumDepth
        func nested(_ levels: Int) -> String {
            String(repeating: open, count: levels) + "a" + String(repeating: close, count: levels)
        }
        let levels = open.hasPrefix("NOT (") ? depth / 2 : depth
        #expect(throws: Never.self) { try UserQueryParser.parse(nested(levels)) }
        let error = #expect(throws: UserQueryError.self) { try UserQueryParser.parse(nested(levels + 1)) }
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.message.hasPrefix("Query nests more than 32 groups and negations at position ") == true)
    }

    /// SPEC §11: a query too complex to run is refused; every kind of term counts.
    @Test(arguments: ["a", "email:a", "name:\"a b\"", "nickname:a*", "_exists_:email", "-a", "(a)"])
    func termLimit(term: String) throws {
        let most = Array(repeating: term, count: UserQueryParser.maximumTerms)
        #expect(throws: Never.self) { try UserQueryParser.parse(most.joined(separator: " OR ")) }
        let error = #expect(throws: UserQueryError.self) {
            try UserQueryParser.parse((most + [term]).joined(separator: " OR "))
        }
        #expect(error?.code == .tooManyTerms)
        #expect(error?.message.hasPrefix("Query has more than 100 terms at position ") == true)
        #expect(UserQueryError.Code.tooManyTerms.description == "too_many_terms")
    }

    @Test func unbalancedDeepInputFailsCleanly() {
        let error = #expect(throws: UserQueryError.self) {
            try UserQueryParser.parse(String(repeating: "(", count: UserQueryParser.maximumLength))
        }
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.position == 33)
    }

    @Test func fieldNames() throws {
        #expect(Self.field("user_metadata.address.city").description == "user_metadata.address.city")
        #expect(Self.field("user_metadata.address.city").column == .userMetadata)
        #expect(Self.field("user_metadata.address.city").path == ["address", "city"])
        #expect(UserQueryField.emailVerified.description == "email_verified")
        #expect(UserQueryField.Column.allCases.filter { Self.isTopLevelField($0.rawValue) }.count == 6)
        #expect(UserQueryField.bareTermFields == [.email, .name, .nickname, .userID])
    }

    private static func isTopLevelField(_ name: String) -> Bool {
        (try? UserQueryField(named: name, at: 1)) != nil
    }

    @Test func errorsAreEqualByCode() {
        #expect(
            UserQueryError(.unknownField, "Unknown field 'a'", at: 1)
                == UserQueryError(.unknownField, "Unknown field 'b'", at: 9))
        #expect(
            UserQueryError(.unknownField, "x", at: 1) != UserQueryError(.invalidValue, "x", at: 1))
        #expect(UserQueryError.Code.nestingTooDeep.description == "nesting_too_deep")
    }
}
