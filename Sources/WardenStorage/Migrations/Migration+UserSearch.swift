import SQLKit

extension Migration {
    /// Version 10 (9 is multi-factor authentication's): what lets the user search (SPEC §9) use indexes instead of
    /// reading every user.
    ///
    /// - `email`, `name`, `nickname` are compared as `lower(column)`: SQLite gets the missing `lower(email)`
    ///   index (its prefix search is a range on the same indexes); PostgreSQL gets `text_pattern_ops` indexes on
    ///   the lowered columns and on `user_id`, which serve both `=` and a `LIKE 'prefix%'` whatever the
    ///   database's collation.
    /// - Metadata is searched in `user_fields` (``UserFieldsProjection``), built here for the users already
    ///   stored. `value` compares byte by byte on both engines (`COLLATE "C"` on PostgreSQL, SQLite's default),
    ///   so that a prefix is a range of the index.
    static func userSearchIndexes(_ ddl: DDL) -> [SQLQueryString] {
        let profileIndexes: [SQLQueryString] =
            switch ddl.engine {
            case .sqlite:
                ["CREATE INDEX users_email_lower ON users (lower(email))"]
            case .postgres:
                [
                    "CREATE INDEX users_email_pattern ON users (lower(email) text_pattern_ops)",
                    "CREATE INDEX users_name_pattern ON users (lower(name) text_pattern_ops)",
                    "CREATE INDEX users_nickname_pattern ON users (lower(nickname) text_pattern_ops)",
                    "CREATE INDEX users_user_id_pattern ON users (user_id text_pattern_ops)",
                ]
            }
        let bytewiseText = SQLRaw(ddl.engine == .sqlite ? "TEXT" : #"TEXT COLLATE "C""#)
        let characters = UserFieldsProjection.indexedCharacters
        return profileIndexes + [
            "CREATE TABLE user_fields (user_id TEXT NOT NULL, path TEXT NOT NULL, value \(bytewiseText))",
            "CREATE INDEX user_fields_user ON user_fields (user_id, path)",
            "CREATE INDEX user_fields_value ON user_fields (path, substr(value, 1, \(literal: characters)), user_id)",
            UserFieldsProjection.insertStatement(engine: ddl.engine, userIDs: nil),
        ]
    }

    /// Version 13: on SQLite, every new user costs a few B-trees fewer (an import of 1,000,000 users wrote 19
    /// B-tree entries a user, issue 16); on PostgreSQL, the planner learns how often each value of each path is.
    ///
    /// - PostgreSQL: extended statistics (`mcv`) on `(path, substr(value, 1, 200))`, the index's key. Without
    ///   them it multiplies the frequency of the path by that of the value as if they were unrelated, expects a
    ///   fifth of the users of `app_metadata.plan:gold` and `lang:de AND tier:3`, and hashes them all rather
    ///   than walk the users in order (1.8 s instead of 34 ms with 1,000,000 users).
    /// - `users_email_lower` goes: a stored address is lower-cased already (every write lower-cases it in full,
    ///   and SQLite's `lower()` folds ASCII only), so `lower(email)` is `email`, and the search compares `email`
    ///   through the `UNIQUE` index it has anyway.
    /// - `user_fields` becomes a `WITHOUT ROWID` table keyed by `(user_id, path)`: the rows live in the key's
    ///   B-tree, where they were in a rowid table plus the `user_fields_user` index.
    static func leanerUserSearch(_ ddl: DDL) -> [SQLQueryString] {
        let characters = UserFieldsProjection.indexedCharacters
        guard ddl.engine == .sqlite else {
            return [
                """
                CREATE STATISTICS user_fields_path_value (mcv) ON path, substr(value, 1, \(literal: characters)) \
                FROM user_fields
                """
            ]
        }
        return [
            "DROP INDEX users_email_lower",
            """
            CREATE TABLE user_fields_keyed (user_id TEXT NOT NULL, path TEXT NOT NULL, value TEXT,
                PRIMARY KEY (user_id, path)) WITHOUT ROWID
            """,
            "INSERT INTO user_fields_keyed SELECT user_id, path, value FROM user_fields WHERE TRUE ON CONFLICT DO NOTHING",
            "DROP TABLE user_fields",
            "ALTER TABLE user_fields_keyed RENAME TO user_fields",
            "CREATE INDEX user_fields_value ON user_fields (path, substr(value, 1, \(literal: characters)), user_id)",
        ]
    }
}
