import SQLKit

extension Migration {
    /// Version 15 (SPEC §15 "Users"): users of other connections, and their identities.
    ///
    /// - An e-mail address is unique among the database connection's users only (`user_id` `auth0|…`, the ones
    ///   who sign in with it): a person may have a GitHub user and a database user with one address, never merged
    ///   by it. PostgreSQL drops the column's `UNIQUE` for a partial unique index; SQLite cannot drop a column
    ///   constraint, so `users` is built again with the same columns (the procedure of SQLite's ALTER TABLE
    ///   documentation: a new table, the rows copied, the old one dropped, the new one renamed, its indexes made).
    ///   `users_email` serves the search and `users-by-email`, which match every connection's users.
    /// - `user_identities`: one row per identity an upstream vouches for — its connection, its provider (the
    ///   strategy), its upstream id as text (`number` says whether the wire shows it as a JSON number, as GitHub's
    ///   ids are), whether it is social, the profile it brought, and the user it belongs to. A database user's
    ///   own identity is not stored: it follows from its id.
    static func federatedUsers(_ ddl: DDL) -> [SQLQueryString] {
        let databaseUser: SQLQueryString = "substr(user_id, 1, 6) = 'auth0|'"
        let users: [SQLQueryString] =
            switch ddl.engine {
            case .postgres:
                ["ALTER TABLE users DROP CONSTRAINT users_email_key"]
            case .sqlite:
                [
                    """
                    CREATE TABLE users_rebuilt (
                        user_id TEXT PRIMARY KEY,
                        email TEXT,
                        email_verified INTEGER NOT NULL,
                        name TEXT,
                        nickname TEXT,
                        picture TEXT,
                        blocked INTEGER NOT NULL,
                        user_metadata TEXT NOT NULL,
                        app_metadata TEXT NOT NULL,
                        password_hash TEXT,
                        created_at BIGINT NOT NULL,
                        updated_at BIGINT NOT NULL,
                        last_login BIGINT,
                        logins_count BIGINT NOT NULL
                    )
                    """,
                    "INSERT INTO users_rebuilt SELECT user_id, email, email_verified, name, nickname, picture, "
                        + "blocked, user_metadata, app_metadata, password_hash, created_at, updated_at, last_login, "
                        + "logins_count FROM users",
                    "DROP TABLE users",
                    "ALTER TABLE users_rebuilt RENAME TO users",
                    "CREATE INDEX users_name ON users (lower(name))",
                    "CREATE INDEX users_nickname ON users (lower(nickname))",
                    "CREATE INDEX users_created ON users (created_at, user_id)",
                ]
            }
        return users + [
            "CREATE UNIQUE INDEX users_database_email ON users (email) WHERE \(databaseUser)",
            "CREATE INDEX users_email ON users (email)",
            """
            CREATE TABLE user_identities (
                connection_id TEXT NOT NULL,
                identity_user_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                provider TEXT NOT NULL,
                number \(ddl.boolean) NOT NULL,
                is_social \(ddl.boolean) NOT NULL,
                profile_data TEXT NOT NULL,
                tokens TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (connection_id, identity_user_id)
            )
            """,
            "CREATE INDEX user_identities_user ON user_identities (user_id)",
        ]
    }
}
