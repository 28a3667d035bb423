import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// Runs the query language's cases (SPEC §9) through ``SQLStore/searchUsers(_:sort:page:)`` on every engine, on
/// users written by the store (so the metadata projection is the one every write maintains) and again on a
/// projection rebuilt by migration 10's statement, and checks which users match.
@Suite struct UserQuerySQLTests {
    private static let alice = "auth0|alice"
    private static let bob = "auth0|bob"
    private static let carol = "google-oauth2|carol"
    private static let dave = "auth0|dave"
    private static let eve = "auth0|eve%"
    private static let everyone: Set = [alice, bob, carol, dave, eve]
    /// Longer than the indexed part of a metadata value: the rest is compared on the row.
    private static let longBio = String(repeating: "x", count: 250) + "end"

    private struct SeedUser {
        var userID: String
        var email: String?
        var emailVerified: Bool
        var name: String?
        var nickname: String?
        var blocked: Bool
        var userMetadata: String
        var appMetadata: String
    }

    private static let users = [
        SeedUser(
            userID: alice, email: "Alice@Example.com", emailVerified: true, name: "Alice Liddell", nickname: "alice",
            blocked: false,
            userMetadata: #"{"plan":"gold","vip":true,"age":42,"address":{"city":"Paris","zip":"75001"},"x.y":"dot"}"#,
            appMetadata: #"{"tier":"Pro","score":4.5}"#),
        SeedUser(
            userID: bob, email: "bob@example.org", emailVerified: false, name: "Bob 50% _off_", nickname: "bobby",
            blocked: true, userMetadata: #"{"plan":"silver","vip":false,"age":17,"x":{"y":"nested"}}"#,
            appMetadata: #"{"tier":"pro","roles":["admin"]}"#),
        SeedUser(
            userID: carol, email: "carol@gmail.com", emailVerified: true, name: "carol", nickname: "Caz",
            blocked: false, userMetadata: #"{"city":"Zürich"}"#, appMetadata: #"{"tier":null}"#),
        SeedUser(
            userID: dave, email: nil, emailVerified: false, name: "", nickname: "dave", blocked: false,
            userMetadata: #"{"plan":"gold-plus","note":"it's \"quoted\" \\ back","bio":"\#(longBio)"}"#,
            appMetadata: "{}"),
        SeedUser(
            userID: eve, email: "eve@example.com", emailVerified: false, name: "Eve_Online", nickname: #"e\ve"#,
            blocked: false, userMetadata: #"{"plan":"Gold"}"#, appMetadata: "{}"),
    ]

    /// The most complex queries the parser accepts (SPEC §11): ``UserQueryParser/maximumTerms`` bare terms (each
    /// four columns) inside ``UserQueryParser/maximumDepth`` - 1 groups, and as many metadata terms ANDed, run
    /// on both engines (a query of 1,000 terms once overflowed SQLite's expression tree).
    static let largestQueries: [(String, Set<String>)] = [
        (
            String(repeating: "(", count: UserQueryParser.maximumDepth - 1)
                + (["alice"] + (2...UserQueryParser.maximumTerms).map { "z\($0)" }).joined(separator: " OR ")
                + String(repeating: ")", count: UserQueryParser.maximumDepth - 1),
            [alice]
        ),
        ((1...UserQueryParser.maximumTerms).map { "app_metadata.t\($0):x*" }.joined(separator: " "), []),
    ]

    static let cases: [(String, Set<String>)] = [
        ("", everyone),
        ("*", everyone),
        ("NOT *", []),
        ("email:alice@example.com", [alice]),
        ("email:ALICE@EXAMPLE.COM", [alice]),
        ("email:alice@*", [alice]),
        ("email:ALI*", [alice]),
        ("email:*", [alice, bob, carol, eve]),
        ("_exists_:email", [alice, bob, carol, eve]),
        (#"name:"Alice Liddell""#, [alice]),
        (#"name:"alice liddell""#, [alice]),
        ("name:ALI*", [alice]),
        ("name:c*", [carol]),
        ("nickname:caz", [carol]),
        ("nickname:CA*", [carol]),
        ("nickname:z*", []),
        // LIKE wildcards and the escape character in a prefix are literal.
        ("name:Bob_*", []),
        (#"name:Bob\ 5%*"#, []),
        (#"name:Bob\ 50%*"#, [bob]),
        ("name:Eve_*", [eve]),
        (#"nickname:e\\*"#, [eve]),
        ("user_id:auth0|alice", [alice]),
        ("user_id:Auth0|alice", []),
        ("user_id:auth0*", [alice, bob, dave, eve]),
        ("user_id:AUTH0*", []),
        ("user_id:auth0|eve%", [eve]),
        ("user_id:auth0|eve*", [eve]),
        ("user_id:google-oauth2|*", [carol]),
        ("email_verified:true", [alice, carol]),
        ("email_verified:false", [bob, dave, eve]),
        ("blocked:true", [bob]),
        ("blocked:false", [alice, carol, dave, eve]),
        ("NOT blocked:true", [alice, carol, dave, eve]),
        ("_exists_:blocked", everyone),
        ("user_metadata.plan:gold", [alice]),
        ("user_metadata.plan:Gold", [eve]),
        ("user_metadata.plan:gold*", [alice, dave]),
        ("user_metadata.plan:gol*", [alice, dave]),
        ("user_metadata.plan:G*", [eve]),
        ("user_metadata.vip:true", [alice]),
        ("user_metadata.vip:false", [bob]),
        ("NOT user_metadata.vip:true", [bob, carol, dave, eve]),
        ("user_metadata.age:42", [alice]),
        ("user_metadata.age:4*", [alice]),
        ("app_metadata.score:4.5", [alice]),
        ("app_metadata.tier:pro", [bob]),
        ("user_metadata.address.city:Paris", [alice]),
        ("user_metadata.address.zip:75*", [alice]),
        ("user_metadata.city:Zürich", [carol]),
        ("user_metadata.city:Zü*", [carol]),
        ("user_metadata.city:zürich", []),
        // A key with a dot is not the path through two keys; an array or object matches no value.
        ("user_metadata.x.y:dot", []),
        ("user_metadata.x.y:nested", [bob]),
        ("app_metadata.roles:admin", []),
        ("_exists_:app_metadata.roles", [bob]),
        ("_exists_:user_metadata.address", [alice]),
        ("user_metadata.plan.deeper:gold", []),
        ("user_metadata.missing:x", []),
        (#"user_metadata.note:"it's \"quoted\" \\ back""#, [dave]),
        ("user_metadata.bio:\(longBio)", [dave]),
        ("user_metadata.bio:\(longBio.dropLast(3))*", [dave]),
        ("user_metadata.bio:\(longBio.dropLast(1))*", [dave]),
        ("user_metadata.bio:\(longBio.dropLast(3))ex*", []),
        ("user_metadata.bio:\(longBio.dropLast(1))", []),
        ("user_metadata.bio:x*", [dave]),
        ("_exists_:user_metadata.plan", [alice, bob, dave, eve]),
        ("_exists_:app_metadata.tier", [alice, bob]),
        ("NOT _exists_:app_metadata.tier", [carol, dave, eve]),
        ("_exists_:name", [alice, bob, carol, eve]),
        ("NOT _exists_:name", [dave]),
        ("alice", [alice]),
        ("bobby", [bob]),
        ("CAZ", [carol]),
        ("auth0|dave", [dave]),
        ("BOB@example.org", [bob]),
        ("car*", [carol]),
        ("alice OR bobby", [alice, bob]),
        ("alice bobby", []),
        ("email_verified:true AND NOT name:carol", [alice]),
        ("email_verified:true AND name:carol OR blocked:true", [bob, carol]),
        ("email_verified:true AND (name:carol OR blocked:true)", [carol]),
        ("user_metadata.plan:gold* AND NOT app_metadata.tier:Pro", [dave]),
        ("NOT email:alice@example.com", [bob, carol, dave, eve]),
        ("-email:alice@example.com", [bob, carol, dave, eve]),
        ("email:(alice@example.com OR bob@example.org)", [alice, bob]),
        ("NOT (email:alice@example.com OR user_metadata.plan:gold)", [bob, carol, dave, eve]),
        (#"name:"x' OR '1'='1""#, []),
        (#"user_metadata.plan:"gold') OR 1=1 --""#, []),
    ]

    @Test(arguments: TestDatabase.available)
    func searches(database: TestDatabase) async throws {
        try await database.withIsolatedStore { store in
            for user in Self.users {
                try await store.insertUser(try Self.record(user))
            }
            try await Self.expectCases(in: store, projection: "written by the store")
            // Migration 10 builds the projection of the users already there with the same statement.
            try await store.sql.raw("DELETE FROM user_fields").run()
            try await store.sql.raw(UserFieldsProjection.insertStatement(engine: store.engine, userIDs: nil)).run()
            try await Self.expectCases(in: store, projection: "built by the migration")
        }
    }

    /// An update rewrites the user's projection, a delete removes it: no stale value is found.
    @Test(arguments: TestDatabase.available)
    func updatesAndDeletesKeepTheProjection(database: TestDatabase) async throws {
        try await database.withIsolatedStore { store in
            var record = try Self.record(Self.users[0])
            try await store.insertUser(record)
            record.user.userMetadata = ["plan": .string("silver")]
            try await store.updateUser(record)
            #expect(try await Self.matches("user_metadata.plan:gold", in: store).isEmpty)
            #expect(try await Self.matches("user_metadata.plan:silver", in: store) == [Self.alice])
            #expect(try await Self.matches("_exists_:user_metadata.address", in: store).isEmpty)
            #expect(try await store.deleteUser(id: Self.alice))
            #expect(try await store.count(from: "user_fields") == 0)
        }
    }

    /// `include_totals` counts exactly up to 1,000 matches and reports 1,000 beyond (SPEC §9, like the reference
    /// platform's search); the items of the page are still there.
    @Test(arguments: TestDatabase.available)
    func totalsAreCappedAtOneThousand(database: TestDatabase) async throws {
        try await database.withIsolatedStore { store in
            let values = (0..<1_005).map { index in
                "('auth0|bulk\(index)', \(index), '{\"plan\":\"\(index < 10 ? "gold" : "free")\"}')"
            }
            let no = store.engine == .sqlite ? "0" : "false"
            try await store.sql.raw(
                """
                WITH v(id, at, meta) AS (VALUES \(unsafeRaw: values.joined(separator: ",")))
                INSERT INTO users (user_id, email_verified, blocked, user_metadata, app_metadata, created_at, \
                updated_at, logins_count) SELECT id, \(unsafeRaw: no), \(unsafeRaw: no), meta, '{}', at, at, 0 FROM v
                """
            ).run()
            try await store.sql.raw(UserFieldsProjection.insertStatement(engine: store.engine, userIDs: nil)).run()
            let all = try await store.searchUsers(.matchAll, sort: nil, page: PageRequest(page: 0, perPage: 50))
            #expect(all.total == 1000 && all.items.count == 50)
            #expect(all.items.first?.user.userID == "auth0|bulk0", "creation order")
            let past = try await store.searchUsers(.matchAll, sort: nil, page: PageRequest(page: 20, perPage: 50))
            #expect(
                past.total == 1000
                    && past.items.map(\.user.userID) == [
                        "auth0|bulk1000", "auth0|bulk1001",
                        "auth0|bulk1002", "auth0|bulk1003", "auth0|bulk1004",
                    ])
            for limit in [SQLStore.rareValueLimit, 0] {
                let gold = try await store.searchUsers(
                    try UserQueryParser.parse("user_metadata.plan:gold"), sort: nil,
                    page: PageRequest(page: 0, perPage: 5), rareValueLimit: limit)
                #expect(gold.total == 10 && gold.items.map(\.user.userID) == (0..<5).map { "auth0|bulk\($0)" })
            }
            let free = try await store.searchUsers(
                try UserQueryParser.parse("user_metadata.plan:free"), sort: nil, page: PageRequest(page: 0, perPage: 5))
            #expect(free.total == 995)
        }
    }

    @Test(arguments: [("ab", "ac"), ("a\u{10FFFF}", "b"), ("\u{D7FF}", "\u{E000}"), ("z", "{")])
    func successor(prefix: String, expected: String) {
        #expect(UserQuerySQLRenderer.successor(of: prefix) == expected)
    }

    @Test func noSuccessor() {
        #expect(UserQuerySQLRenderer.successor(of: "") == nil)
        #expect(UserQuerySQLRenderer.successor(of: "\u{10FFFF}\u{10FFFF}") == nil)
    }

    /// Every case, read both ways on SQLite: from the users a rare metadata value names (every value is rare
    /// among these few users), and from `users` first (a limit of 0).
    private static func expectCases(in store: SQLStore, projection: String) async throws {
        for (query, expected) in cases + largestQueries {
            for limit in [SQLStore.rareValueLimit, 0] {
                let found = try await matches(query, in: store, rareValueLimit: limit)
                #expect(found == expected, "\(query.prefix(80)) (projection \(projection), rare values \(limit))")
            }
        }
    }

    private static func matches(
        _ query: String, in store: SQLStore, rareValueLimit: Int = SQLStore.rareValueLimit
    ) async throws -> Set<String> {
        let result = try await store.searchUsers(
            try UserQueryParser.parse(query), sort: nil, page: PageRequest(page: 0, perPage: 100),
            rareValueLimit: rareValueLimit)
        return Set(result.items.map(\.user.userID))
    }

    private static func record(_ seed: SeedUser) throws -> UserRecord {
        var user = User(userID: seed.userID, email: seed.email, createdAt: storedTime())
        user.emailVerified = seed.emailVerified
        user.name = seed.name
        user.nickname = seed.nickname
        user.blocked = seed.blocked
        let decoder = JSONDecoder()
        user.userMetadata = try decoder.decode([String: JSONValue].self, from: Data(seed.userMetadata.utf8))
        user.appMetadata = try decoder.decode([String: JSONValue].self, from: Data(seed.appMetadata.utf8))
        return UserRecord(user: user, passwordHash: nil)
    }

    // MARK: - The SQL text

    static let serialized: [(String, SQLEngineKind, String, [String])] = [
        ("email:a@b.c", .sqlite, #""email" = lower(?1)"#, ["a@b.c"]),
        ("email:a@b.c", .postgres, #"lower("email") = lower($1)"#, ["a@b.c"]),
        (
            "jo_%*", .postgres,
            #"(lower("email") LIKE lower($1) ESCAPE '\' OR lower("name") LIKE lower($2) ESCAPE '\' "#
                + #"OR lower("nickname") LIKE lower($3) ESCAPE '\' OR "user_id" LIKE $4 ESCAPE '\')"#,
            [#"jo\_\%%"#, #"jo\_\%%"#, #"jo\_\%%"#, #"jo\_\%%"#]
        ),
        // SQLite's LIKE cannot use an index on an expression: the prefix is also a range of the index.
        (
            "user_id:a*", .sqlite, #"(("user_id" >= ?1 AND "user_id" < ?2) AND substr("user_id", 1, length(?3)) = ?4)"#,
            ["a", "b", "a", "a"]
        ),
        (
            "name:Jo*", .sqlite,
            #"((lower("name") >= ?1 AND lower("name") < ?2) AND lower("name") LIKE lower(?3) ESCAPE '\')"#,
            ["jo", "jp", "Jo%"]
        ),
        (
            "NOT blocked:true", .sqlite, #"("blocked" IS TRUE) IS NOT TRUE"#, []
        ),
        (
            "_exists_:name OR email_verified:false", .postgres,
            #"(("name" IS NOT NULL AND "name" <> '') OR "email_verified" IS NOT true)"#, []
        ),
        (
            "user_metadata.a.b-c:x", .sqlite,
            #"EXISTS (SELECT 1 FROM user_fields AS f WHERE "f"."user_id" = "users"."user_id" AND "f"."path" = ?1 "#
                + #"AND substr("f"."value", 1, 200) = ?2)"#,
            ["user_metadata.a.b-c", "x"]
        ),
        // A value as long as the indexed part, or longer, is also compared whole.
        (
            "user_metadata.note:\(String(repeating: "x", count: 200))", .postgres,
            #"EXISTS (SELECT 1 FROM user_fields AS f WHERE "f"."user_id" = "users"."user_id" AND "f"."path" = $1 "#
                + #"AND substr("f"."value", 1, 200) = $2 AND "f"."value" = $3)"#,
            ["user_metadata.note", String(repeating: "x", count: 200), String(repeating: "x", count: 200)]
        ),
        (
            "app_metadata.a.b-c:x*", .postgres,
            #"EXISTS (SELECT 1 FROM user_fields AS f WHERE "f"."user_id" = "users"."user_id" AND "f"."path" = $1 "#
                + #"AND (substr("f"."value", 1, 200) >= $2 AND substr("f"."value", 1, 200) < $3))"#,
            ["app_metadata.a.b-c", "x", "y"]
        ),
        (
            "_exists_:app_metadata.plan", .postgres,
            #"EXISTS (SELECT 1 FROM user_fields AS f WHERE "f"."user_id" = "users"."user_id" AND "f"."path" = $1)"#,
            ["app_metadata.plan"]
        ),
        ("*", .postgres, "true", []),
        ("*", .sqlite, "TRUE", []),
    ]

    /// Values, metadata paths included, only ever reach the database as bound parameters.
    @Test(arguments: serialized)
    func serializes(query: String, engine: SQLEngineKind, sql: String, binds: [String]) throws {
        let database = SerializingDatabase(engine: engine)
        let (text, values) = database.serialize(sqlPredicate(for: try UserQueryParser.parse(query), dialect: engine))
        #expect(text == sql)
        #expect(values.map { "\($0)" } == binds)
    }

    @Test(arguments: [SQLEngineKind.sqlite, .postgres])
    func neverInterpolatesValues(engine: SQLEngineKind) throws {
        let value = "x') OR 1=1; DROP TABLE users; --"
        let query = try UserQueryParser.parse(
            #"name:"\#(value)" OR user_metadata.plan:"\#(value)" OR user_id:"\#(value)""#)
        let (text, binds) = SerializingDatabase(engine: engine).serialize(sqlPredicate(for: query, dialect: engine))
        #expect(!text.contains("1=1"))
        #expect(binds.contains { ($0 as? String) == value })
    }

    @Test func emptyJunctionsAreTheirIdentity() {
        let database = SerializingDatabase(engine: .postgres)
        #expect(database.serialize(sqlPredicate(for: .and([]), dialect: .postgres)).sql == "true")
        #expect(database.serialize(sqlPredicate(for: .or([]), dialect: .postgres)).sql == "false")
    }
}

/// Only serializes: the dialect is all SQLKit needs to turn an expression into text.
private struct SerializingDatabase: SQLDatabase {
    let engine: SQLEngineKind
    let logger = Logger(label: "test")
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect {
        switch engine {
        case .sqlite: SQLiteDialect()
        case .postgres: PostgresDialect()
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        eventLoop.makeFailedFuture(ExecutionNotSupported())
    }

    struct ExecutionNotSupported: Error {}
}
