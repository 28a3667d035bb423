import SQLKit

extension Migration {
    /// Version 16 (SPEC §15.1): the password history of database users (`password_history`, newest last by
    /// `seq`), and an index that finds a user's refresh tokens, which a password reset revokes.
    static func accounts(_ ddl: DDL) -> [SQLQueryString] {
        [
            """
            CREATE TABLE password_history (
                seq \(ddl.serialPrimaryKey),
                user_id TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX password_history_user ON password_history (user_id, seq)",
            "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
        ]
    }
}
