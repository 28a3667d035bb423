import Foundation
import Testing
import WardenCore
import WardenWire

/// The users file of SPEC §9 "Bulk users": cut into entries however it is chunked, each entry parsed and checked
/// on its own.
@Suite("Users file: splitting, parsing, checking entries")
struct UserImportFileTests {
    /// The entries' texts of `file` fed `chunkSize` bytes at a time.
    static func entries(_ file: String, chunkSize: Int) throws -> [String] {
        var splitter = UsersFileSplitter()
        var entries: [String] = []
        let bytes = Array(file.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try splitter.feed(bytes[start..<end]) { entries.append(String(decoding: $0, as: UTF8.self)) }
            start = end
        }
        try splitter.finish()
        return entries.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test(arguments: [1, 2, 7, 1_000])
    func anArrayAndNDJSONSplitTheSameAtAnyChunkSize(chunkSize: Int) throws {
        let array = #"  [ {"email": "a@x.io", "n": [1, {"b": "]},\"["}]}, {"email": "b@x.io"} ,"x" ]  "#
        #expect(
            try Self.entries(array, chunkSize: chunkSize) == [
                #"{"email": "a@x.io", "n": [1, {"b": "]},\"["}]}"#, #"{"email": "b@x.io"}"#, #""x""#,
            ])
        let lines = "{\"email\": \"a@x.io\", \"s\": \"}\"}\n{\"email\": \"b@x.io\"}\n"
        #expect(
            try Self.entries(lines, chunkSize: chunkSize) == [
                #"{"email": "a@x.io", "s": "}"}"#, #"{"email": "b@x.io"}"#,
            ])
        #expect(try Self.entries("[]", chunkSize: chunkSize).isEmpty)
    }

    @Test(arguments: ["", "   ", "\"users\"", "[{\"email\": \"a@x.io\"}", "[{}] x", "{} 3"])
    func aFileThatIsNotAUsersFileIsRefused(file: String) {
        #expect(throws: UsersFileSplitter.FormatError.self) { try Self.entries(file, chunkSize: 3) }
    }

    @Test func theParserReadsJSONAndRefusesWhatIsNot() throws {
        let value = try JSONBytesParser.parse(
            Array(#" {"a": [1, -2.5e1, true, false, null], "s": "é\u00e9\ud83d\ude00\n"} "#.utf8))
        #expect(value == ["a": [1, -25, true, false, .null], "s": "éé😀\n"])
        for text in [#"{"a": }"#, "[1,]", "01", #""\ud800""#, "{\"a\": 1} 2", "tru", "\"\u{01}\""] {
            #expect(throws: JSONBytesParser.SyntaxError.self, "\(text)") { try JSONBytesParser.parse(Array(text.utf8)) }
        }
    }

    static let hash = "$2y$10$" + String(repeating: "a", count: 53)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func check(_ entry: JSONValue) -> UserImportEntry.Checked {
        UserImportEntry.record(from: entry, now: now, newID: { "auth0|generated" })
    }

    @Test func aValidEntryBecomesARecordWithItsHashAsGiven() {
        let checked = Self.check([
            "email": "Ada@Example.com", "user_id": "ada", "name": "Ada", "blocked": true,
            "user_metadata": ["lang": "de"], "password_hash": .string(Self.hash), "identities": [], "logins_count": 3,
        ])
        var user = User(userID: "auth0|ada", email: "ada@example.com", createdAt: Self.now)
        user.name = "Ada"
        user.blocked = true
        user.userMetadata = ["lang": "de"]
        #expect(checked == .valid(UserRecord(user: user, passwordHash: Self.hash)))
        let custom = Self.check([
            "email": "b@example.com",
            "custom_password_hash": ["algorithm": "bcrypt", "hash": ["value": .string(Self.hash)]],
        ])
        guard case .valid(let record) = custom else { Issue.record("\(custom)"); return }
        #expect(record.passwordHash == Self.hash)
        #expect(record.user.userID == "auth0|generated")
    }

    @Test func everyReasonOfAnEntryIsReportedWithItsPath() {
        let cases: [(JSONValue, [(UserImportIssue.Code, String)])] = [
            ("text", [(.invalidType, "")]),
            ([:], [(.missingProperty, "email")]),
            (["email": "nope"], [(.invalidFormat, "email")]),
            (["email": 3], [(.invalidType, "email")]),
            (["email": "a@x.io", "password": "secret"], [(.additionalProperty, "password")]),
            (["email": "a@x.io", "password_hash": "$1$md5"], [(.invalidFormat, "password_hash")]),
            (
                ["email": "a@x.io", "password_hash": .string("$2b$03$" + String(repeating: "a", count: 53))],
                [(.invalidFormat, "password_hash")]
            ),
            (
                ["email": "a@x.io", "custom_password_hash": ["algorithm": "md5", "hash": ["value": "x"]]],
                [(.invalidFormat, "custom_password_hash.algorithm")]
            ),
            (
                [
                    "email": "a@x.io", "password_hash": .string(Self.hash),
                    "custom_password_hash": ["algorithm": "bcrypt"],
                ],
                [(.invalidFormat, "custom_password_hash")]
            ),
            (
                ["email": "a@x.io", "user_id": "has space", "blocked": "yes"],
                [(.invalidFormat, "user_id"), (.invalidType, "blocked")]
            ),
        ]
        for (entry, expected) in cases {
            guard case .invalid(let issues) = Self.check(entry) else {
                Issue.record("\(entry) should be refused")
                continue
            }
            #expect(issues.map(\.code) == expected.map(\.0), "\(entry)")
            #expect(issues.map(\.path) == expected.map(\.1), "\(entry)")
        }
    }

    @Test(arguments: ["$2a$", "$2b$", "$2y$"])
    func bcryptPrefixesAreAcceptedAndTwoYIsVerifiedAsTwoB(prefix: String) {
        let hash = prefix + "12$" + String(repeating: "./Az09", count: 9).prefix(53)
        #expect(BcryptHash.isValid(hash))
        #expect(BcryptHash.verifiable(hash).hasPrefix(prefix == "$2y$" ? "$2b$" : prefix))
        #expect(!BcryptHash.isValid(String(hash.dropLast())))
        #expect(!BcryptHash.isValid("$2x$" + hash.dropFirst(4)))
    }
}
