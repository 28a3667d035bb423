import SQLKit
import WardenWire

/// The searchable projection of users' metadata (SPEC §9 `user_metadata.*`, `app_metadata.*`): the table
/// `user_fields(user_id, path, value)`, one row per value reachable from a metadata object through object keys.
///
/// - `path` is the field as a query names it, `user_metadata.address.city`; keys that a query cannot name (empty,
///   or with a character other than `[A-Za-z0-9_-]`, a `.` in particular) are left out, with what lies below them.
/// - `value` is the text the search compares: a string as is, a number as the engine prints it, `true`/`false`;
///   `NULL` for an object or an array (they exist, but no value matches them). A JSON `null` has no row: the
///   field has no value.
///
/// The engine computes the rows itself from the stored JSON (SQLite's `json_each`, PostgreSQL's `jsonb_each`), so
/// the values read are the ones the search read from the JSON before the projection (`json_extract`, `#>>`).
/// ``insertStatement(engine:userIDs:)`` serves both the migration that builds the table for existing users and
/// ``SQLStore/writeSearchProjection(for:on:)``, which every write of a user calls in its transaction.
enum UserFieldsProjection {
    /// The index of `user_fields` covers the first this many characters of a value (a PostgreSQL index entry must
    /// stay under about 2,700 bytes); the search compares the rest on the row.
    static let indexedCharacters = 200

    /// `INSERT INTO user_fields …` the rows of the users named `userIDs` (every user when `nil`), built from their
    /// stored metadata. The caller removes their previous rows first.
    static func insertStatement(engine: SQLEngineKind, userIDs: [String]?) -> SQLQueryString {
        let filter: SQLQueryString = userIDs.map { "u.user_id IN \(among($0, engine: engine))" } ?? "TRUE"
        switch engine {
        case .sqlite:
            // A trigger could not hold this (SQLite allows no WITH in triggers): the store runs it.
            return """
                WITH RECURSIVE node(user_id, path, type, value) AS (
                    SELECT u.user_id, 'user_metadata.' || e.key, e.type, e.value
                    FROM users AS u, json_each(\(sqliteObject("u.user_metadata"))) AS e
                    WHERE \(filter) AND \(sqliteKey("e.key"))
                    UNION ALL
                    SELECT u.user_id, 'app_metadata.' || e.key, e.type, e.value
                    FROM users AS u, json_each(\(sqliteObject("u.app_metadata"))) AS e
                    WHERE \(filter) AND \(sqliteKey("e.key"))
                    UNION ALL
                    SELECT n.user_id, n.path || '.' || e.key, e.type, e.value
                    FROM node AS n, json_each(CASE n.type WHEN 'object' THEN n.value ELSE '{}' END) AS e
                    WHERE \(sqliteKey("e.key"))
                )
                INSERT INTO user_fields (user_id, path, value)
                SELECT user_id, path, CASE type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
                    WHEN 'object' THEN NULL WHEN 'array' THEN NULL ELSE CAST(value AS TEXT) END
                FROM node WHERE type <> 'null' ON CONFLICT DO NOTHING
                """
        case .postgres:
            return """
                WITH RECURSIVE node(user_id, path, value) AS (
                    SELECT u.user_id, m.name || '.' || e.key, e.value
                    FROM users AS u
                    CROSS JOIN LATERAL (VALUES ('user_metadata', u.user_metadata::jsonb),
                        ('app_metadata', u.app_metadata::jsonb)) AS m(name, doc)
                    CROSS JOIN LATERAL jsonb_each(\(postgresObject("m.doc"))) AS e
                    WHERE \(filter) AND \(postgresKey("e.key"))
                    UNION ALL
                    SELECT n.user_id, n.path || '.' || e.key, e.value
                    FROM node AS n CROSS JOIN LATERAL jsonb_each(\(postgresObject("n.value"))) AS e
                    WHERE \(postgresKey("e.key"))
                )
                INSERT INTO user_fields (user_id, path, value)
                SELECT user_id, path, CASE WHEN jsonb_typeof(value) IN ('object', 'array') THEN NULL
                    ELSE value #>> '{}' END
                FROM node WHERE jsonb_typeof(value) <> 'null'
                """
        }
    }

    /// `(SELECT …)` the ids of `userIDs`, bound as one JSON array: a batch of an import names thousands of users,
    /// and one bound value keeps the statement short (issue 16).
    static func among(_ userIDs: [String], engine: SQLEngineKind) -> SQLQueryString {
        let ids = JSONValue.array(userIDs.map(JSONValue.string)).serialized
        return switch engine {
        case .sqlite: "(SELECT value FROM json_each(\(bind: ids)))"
        case .postgres: "(SELECT json_array_elements_text(\(bind: ids)::json))"
        }
    }

    /// The key is one a query can name: not empty, `[A-Za-z0-9_-]` only.
    private static func sqliteKey(_ key: String) -> SQLQueryString {
        "\(unsafeRaw: key) <> '' AND \(unsafeRaw: key) NOT GLOB '*[^-A-Za-z0-9_]*'"
    }

    /// The document when it is an object, else an empty object (NULL included).
    private static func sqliteObject(_ document: String) -> SQLQueryString {
        "CASE json_type(\(unsafeRaw: document)) WHEN 'object' THEN \(unsafeRaw: document) ELSE '{}' END"
    }

    private static func postgresKey(_ key: String) -> SQLQueryString {
        "\(unsafeRaw: key) ~ '^[-A-Za-z0-9_]+$'"
    }

    /// The document when it is an object, else an empty object (`jsonb_each` refuses anything else; NULL gives
    /// no row).
    private static func postgresObject(_ document: String) -> SQLQueryString {
        "CASE jsonb_typeof(\(unsafeRaw: document)) WHEN 'object' THEN \(unsafeRaw: document) ELSE '{}'::jsonb END"
    }
}

extension SQLStore {
    /// Rebuilds the search projection (``UserFieldsProjection``) of the users named `userIDs` from their stored
    /// rows: their old `user_fields` rows go, new ones are computed from their metadata.
    ///
    /// Every path that inserts or updates rows of `users` calls this on its transaction's `db`, after the write
    /// and before the commit, so that a search never misses a committed user nor finds a stale value (SPEC §9);
    /// a deleted user's rows go with ``deleteUser(id:)``. Ids of users that do not exist only remove rows.
    func writeSearchProjection(for userIDs: [String], on db: any SQLDatabase) async throws {
        guard !userIDs.isEmpty else { return }
        try await db.raw(
            "DELETE FROM user_fields WHERE user_id IN \(UserFieldsProjection.among(userIDs, engine: engine))"
        ).run()
        try await db.raw(UserFieldsProjection.insertStatement(engine: engine, userIDs: userIDs)).run()
    }
}
