import SQLKit
public import WardenCore
import WardenWire

/// `users`: one column per profile field (the ``User`` model is mapped by hand), metadata objects as JSON
/// text, e-mail addresses lower-cased so that uniqueness and look-ups ignore case. Each write also rewrites the
/// user's search projection (``writeSearchProjection(for:on:)``) in its transaction.
extension SQLStore {
    public func insertUser(_ record: UserRecord) async throws {
        let columns = Self.userColumns(record)
        try await UniqueViolation.mapped(Self.userConflict(record)) {
            try await transaction { db in
                try await db.insert(into: "users")
                    .columns(["user_id", "created_at"] + columns.map(\.name))
                    .values([record.user.userID, record.user.createdAt.millisecondsSince1970] + columns.map(\.value))
                    .run()
                try await self.writeSearchProjection(for: [record.user.userID], on: db)
            }
        }
    }

    public func user(id: String) async throws -> UserRecord? {
        try await reads.select().column(SQLLiteral.all).from("users").where("user_id", .equal, id)
            .first().map(Self.userRecord)
    }

    public func users(ids: [String]) async throws -> [String: UserRecord] {
        guard !ids.isEmpty else { return [:] }
        let records = try await reads.select().column(SQLLiteral.all).from("users").where(Self.isIn("user_id", ids))
            .all().map(Self.userRecord)
        return Dictionary(records.map { ($0.user.userID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func user(email: String) async throws -> UserRecord? {
        try await reads.select().column(SQLLiteral.all).from("users").where("email", .equal, email.lowercased())
            .where(Self.databaseUser).first().map(Self.userRecord)
    }

    /// Replaces the profile and password hash; `created_at` keeps its stored value.
    public func updateUser(_ record: UserRecord) async throws {
        let columns = Self.userColumns(record)
        let updated = try await UniqueViolation.mapped(Self.userConflict(record)) {
            try await transaction { db in
                let update = db.update("users")
                for column in columns {
                    update.set(column.name, to: column.value)
                }
                let updated = try await update.where("user_id", .equal, record.user.userID).returning("user_id").first()
                if updated != nil { try await self.writeSearchProjection(for: [record.user.userID], on: db) }
                return updated != nil
            }
        }
        guard updated else { throw StorageError.notFound }
    }

    /// Deletes the user, their role assignments, identities and search projection.
    public func deleteUser(id: String) async throws -> Bool {
        try await transaction { db in try await Self.deleteUser(id, on: db) }
    }

    /// Deletes the user `id`, their role assignments, identities, search fields, password history, WebAuthn
    /// credentials and organization memberships (with their roles) on `db`; whether it existed.
    @discardableResult
    static func deleteUser(_ id: String, on db: any SQLDatabase) async throws -> Bool {
        for table in ["user_roles", "organization_members", "organization_member_roles"] {
            try await db.delete(from: table).where("user_id", .equal, id).run()
        }
        try await db.delete(from: "user_identities").where("user_id", .equal, id).run()
        try await db.delete(from: "user_fields").where("user_id", .equal, id).run()
        try await db.delete(from: "password_history").where("user_id", .equal, id).run()
        try await db.delete(from: "webauthn_credentials").where("user_id", .equal, id).run()
        return try await db.delete(from: "users").where("user_id", .equal, id).returning("user_id").first() != nil
    }

    /// `SELECT … WHERE <query> ORDER BY <sort>, user_id LIMIT … OFFSET …` on a reader, through the indexes of
    /// ``sqlPredicate(for:dialect:)``, and a count with the same predicate that stops at ``searchTotalCap``.
    /// Without `sort`, users come in creation order (the `users_created` index, so a page reads no more than it
    /// needs); missing values sort last either way.
    public func searchUsers(_ query: UserQuery, sort: UserSort?, page: PageRequest) async throws -> PageResult<
        UserRecord
    > {
        try await searchUsers(query, sort: sort, page: page, rareValueLimit: Self.rareValueLimit)
    }

    /// ``searchUsers(_:sort:page:)`` with the limit of ``searchSource(for:rareValueLimit:)`` (tests pass 0, to
    /// read `users` first whatever the query).
    func searchUsers(_ query: UserQuery, sort: UserSort?, page: PageRequest, rareValueLimit: Int) async throws
        -> PageResult<UserRecord>
    {
        let sort = sort ?? UserSort(field: .createdAt, ascending: true)
        // NULLS LAST only where there can be NULLs: an index serves a plain ASC / DESC on both engines.
        let nullable: Set<UserSort.Field> = [.email, .name, .nickname, .lastLogin]
        let direction = SQLRaw(
            (sort.ascending ? "ASC" : "DESC") + (nullable.contains(sort.field) ? " NULLS LAST" : ""))
        return try await fetchPage(
            fromSource: try await searchSource(for: query, rareValueLimit: rareValueLimit),
            where: sqlPredicate(for: query, dialect: engine),
            orderBy: [
                SQLOrderBy(expression: SQLColumn(sort.field.rawValue), direction: direction),
                SQLOrderBy(expression: SQLColumn("user_id"), direction: SQLRaw(sort.ascending ? "ASC" : "DESC")),
            ],
            page: page, totalCap: Self.searchTotalCap
        ) { try Self.userRecord($0) }
    }

    /// On SQLite, a search that needs a metadata value held by at most this many users starts from them.
    static let rareValueLimit = 5_000

    /// Where a search reads users from: `users`, or on SQLite, when a metadata term that every match satisfies
    /// names at most ``rareValueLimit`` users, those users first — `(SELECT user_id … FROM user_fields …) CROSS
    /// JOIN users`, an order SQLite keeps.
    ///
    /// SQLite keeps no statistics of values, so it reads users in the sort's order and tests each one: quick
    /// when matches are common, a read of every user when they are rare (`user_metadata.city:"City 2"` with
    /// `lang:de`, which no user has: 1.5 s with 1,000,000 users, issue 16). Counting a term's rows up to the
    /// limit costs a few index pages; the rare term's users are then sorted, at most ``rareValueLimit`` of them.
    /// PostgreSQL keeps per-value statistics and plans this itself.
    private func searchSource(for query: UserQuery, rareValueLimit: Int) async throws -> any SQLExpression {
        let users = SQLIdentifier("users")
        guard engine == .sqlite else { return users }
        var rarest: (count: Int, conditions: SQLList)?
        for terms in UserQuerySQLRenderer(engine: engine).requiredMetadataTerms(of: query) {
            let conditions = SQLList(terms, separator: SQLRaw(" AND "))
            let rows: SQLQueryString =
                "SELECT 1 FROM user_fields AS f WHERE \(conditions) LIMIT \(unsafeRaw: String(rareValueLimit + 1))"
            let count =
                try await reads.raw("SELECT COUNT(*) AS n FROM (\(rows)) AS term").first(
                    decodingColumn: "n", as: Int.self)
                ?? 0
            if count <= rareValueLimit, count < rarest?.count ?? .max { rarest = (count, conditions) }
        }
        guard let rarest else { return users }
        return SQLQueryString(
            """
            (SELECT f.user_id AS rare_user_id FROM user_fields AS f WHERE \(rarest.conditions)) AS rare \
            CROSS JOIN users ON users.user_id = rare.rare_user_id
            """)
    }

    /// The columns of a record besides `user_id` and `created_at`, which never change (metadata as sorted-key
    /// JSON text, written by ``JSONValue/serialized``: a bulk import writes a million of them).
    static func userColumns(_ record: UserRecord) -> [(name: String, value: any Encodable & Sendable)] {
        userValues(record).map { column in
            switch column.value {
            case .text(let text): (column.name, text)
            case .integer(let integer): (column.name, integer)
            case .boolean(let boolean): (column.name, boolean)
            }
        }
    }

    /// A value of a `users` column, with its SQL type.
    enum UserColumnValue {
        case text(String?)
        case integer(Int64?)
        case boolean(Bool)

        /// The value as JSON: a string, a number (exact: the integers stored are far below 2^53), a boolean or
        /// null.
        var json: JSONValue {
            switch self {
            case .text(let text): text.map(JSONValue.string) ?? .null
            case .integer(let integer): integer.map { .number(Double($0)) } ?? .null
            case .boolean(let boolean): .bool(boolean)
            }
        }
    }

    /// ``userColumns(_:)`` with each value's type: what a bulk insert needs to read the values back from JSON.
    static func userValues(_ record: UserRecord) -> [(name: String, value: UserColumnValue)] {
        let user = record.user
        return [
            ("email", .text(user.email?.lowercased())),
            ("email_verified", .boolean(user.emailVerified)),
            ("name", .text(user.name)),
            ("given_name", .text(user.givenName)),
            ("family_name", .text(user.familyName)),
            ("nickname", .text(user.nickname)),
            ("picture", .text(user.picture)),
            ("blocked", .boolean(user.blocked)),
            ("user_metadata", .text(JSONValue.object(user.userMetadata).serialized)),
            ("app_metadata", .text(JSONValue.object(user.appMetadata).serialized)),
            ("password_hash", .text(record.passwordHash)),
            ("updated_at", .integer(user.updatedAt.millisecondsSince1970)),
            ("last_login", .integer(user.lastLogin?.millisecondsSince1970)),
            ("logins_count", .integer(Int64(user.loginsCount))),
        ]
    }

    private static func userConflict(_ record: UserRecord) -> String {
        "The user already exists (user_id '\(record.user.userID)', or a database user has its e-mail address)"
    }

    /// Every column of `users`, the ones ``userRecord(_:)`` reads.
    static let userColumnNames = [
        "user_id", "email", "created_at", "email_verified", "name", "given_name", "family_name", "nickname", "picture",
        "blocked", "user_metadata", "app_metadata", "updated_at", "last_login", "logins_count", "password_hash",
    ]

    static func userRecord(_ row: any SQLRow) throws -> UserRecord {
        var user = User(
            userID: try row.value("user_id"), email: try row.value("email"), createdAt: try row.date("created_at"))
        user.emailVerified = try row.value("email_verified")
        user.name = try row.value("name")
        user.givenName = try row.value("given_name")
        user.familyName = try row.value("family_name")
        user.nickname = try row.value("nickname")
        user.picture = try row.value("picture")
        user.blocked = try row.value("blocked")
        user.userMetadata = try row.jsonObject("user_metadata")
        user.appMetadata = try row.jsonObject("app_metadata")
        user.updatedAt = try row.date("updated_at")
        user.lastLogin = try row.optionalDate("last_login")
        user.loginsCount = Int(try row.value("logins_count", as: Int64.self))
        return UserRecord(user: user, passwordHash: try row.value("password_hash"))
    }
}
