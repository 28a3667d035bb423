import SQLKit

extension Migration {
    /// Version 18 (SPEC §17): `webauthn_credentials`, one row per passkey or second-factor key. `credential_id` and
    /// `public_key` are base64url text (the credential ID unique across users); `transports` a JSON array.
    static func webAuthnCredentials(_ ddl: DDL) -> [SQLQueryString] {
        [
            """
            CREATE TABLE webauthn_credentials (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                credential_id TEXT NOT NULL UNIQUE,
                public_key TEXT NOT NULL,
                sign_count BIGINT NOT NULL,
                aaguid TEXT NOT NULL,
                rp_id TEXT NOT NULL,
                transports TEXT NOT NULL,
                backup_eligible \(ddl.boolean) NOT NULL,
                backed_up \(ddl.boolean) NOT NULL,
                name TEXT NOT NULL,
                user_agent TEXT,
                created_at BIGINT NOT NULL,
                last_auth_at BIGINT
            )
            """,
            "CREATE INDEX webauthn_credentials_user ON webauthn_credentials (user_id, created_at)",
        ]
    }
}
