import SQLKit

extension Migration {
    /// The version of the last migration this build knows.
    static var latestVersion: Int { all.last?.version ?? 0 }

    /// Every migration, in order. Append new ones; never edit one that has shipped.
    ///
    /// Times are `BIGINT` milliseconds since the epoch; JSON is `TEXT`; e-mail addresses are stored lower-cased.
    static let all: [Migration] = [
        Migration(version: 1, name: "initial schema") { ddl in
            [
                """
                CREATE TABLE clients (
                    client_id TEXT PRIMARY KEY,
                    secret_hash TEXT,
                    data TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX clients_created ON clients (created_at, client_id)",
                """
                CREATE TABLE resource_servers (
                    id TEXT PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE,
                    data TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX resource_servers_created ON resource_servers (created_at, id)",
                """
                CREATE TABLE client_grants (
                    id TEXT PRIMARY KEY,
                    client_id TEXT NOT NULL,
                    audience TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    UNIQUE (client_id, audience)
                )
                """,
                "CREATE INDEX client_grants_audience ON client_grants (audience)",
                """
                CREATE TABLE users (
                    user_id TEXT PRIMARY KEY,
                    email TEXT UNIQUE,
                    email_verified \(ddl.boolean) NOT NULL,
                    name TEXT,
                    nickname TEXT,
                    picture TEXT,
                    blocked \(ddl.boolean) NOT NULL,
                    user_metadata TEXT NOT NULL,
                    app_metadata TEXT NOT NULL,
                    password_hash TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    last_login BIGINT,
                    logins_count BIGINT NOT NULL
                )
                """,
                // The user search compares lower(name) and lower(nickname).
                "CREATE INDEX users_name ON users (lower(name))",
                "CREATE INDEX users_nickname ON users (lower(nickname))",
                "CREATE INDEX users_created ON users (created_at, user_id)",
                """
                CREATE TABLE roles (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    description TEXT
                )
                """,
                """
                CREATE TABLE role_permissions (
                    role_id TEXT NOT NULL,
                    resource_server_identifier TEXT NOT NULL,
                    permission_name TEXT NOT NULL,
                    PRIMARY KEY (role_id, resource_server_identifier, permission_name)
                )
                """,
                "CREATE INDEX role_permissions_api ON role_permissions (resource_server_identifier)",
                """
                CREATE TABLE user_roles (
                    user_id TEXT NOT NULL,
                    role_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, role_id)
                )
                """,
                "CREATE INDEX user_roles_role ON user_roles (role_id)",
                """
                CREATE TABLE logs (
                    seq \(ddl.serialPrimaryKey),
                    log_id TEXT NOT NULL UNIQUE,
                    date BIGINT NOT NULL,
                    type TEXT NOT NULL,
                    client_id TEXT,
                    user_id TEXT,
                    user_name TEXT,
                    ip TEXT,
                    audience TEXT,
                    client_name TEXT,
                    data TEXT NOT NULL
                )
                """,
                "CREATE INDEX logs_type ON logs (type, seq)",
                "CREATE INDEX logs_date ON logs (date)",
                "CREATE INDEX logs_user ON logs (user_id, seq)",
                "CREATE INDEX logs_client ON logs (client_id, seq)",
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    alg TEXT NOT NULL,
                    private_key TEXT NOT NULL,
                    current \(ddl.boolean) NOT NULL,
                    created_at BIGINT NOT NULL,
                    current_since BIGINT,
                    revoked_at BIGINT
                )
                """,
                // At most one current key per algorithm, whatever races between nodes.
                "CREATE UNIQUE INDEX signing_keys_current ON signing_keys (alg) WHERE current",
                """
                CREATE TABLE artefacts (
                    kind TEXT NOT NULL,
                    hash TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    consumed_at BIGINT,
                    PRIMARY KEY (kind, hash)
                )
                """,
                "CREATE INDEX artefacts_expiry ON artefacts (expires_at)",
            ]
        },
        Migration(version: 2, name: "sessions, refresh tokens, login throttling") { _ in
            [
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    secret_hash TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    auth_time BIGINT NOT NULL,
                    last_active_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    idle_expires_at BIGINT NOT NULL,
                    method TEXT NOT NULL,
                    source_family_id TEXT
                )
                """,
                "CREATE INDEX sessions_user ON sessions (user_id)",
                "CREATE INDEX sessions_source_family ON sessions (source_family_id)",
                // The purge deletes by either end.
                "CREATE INDEX sessions_expiry ON sessions (expires_at)",
                "CREATE INDEX sessions_idle_expiry ON sessions (idle_expires_at)",
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    family_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    audience TEXT,
                    scope TEXT NOT NULL,
                    authorization_details TEXT,
                    session_id TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT,
                    used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
                "CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)",
                """
                CREATE TABLE login_failures (
                    user_id TEXT NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX login_failures_user ON login_failures (user_id, at)",
                """
                CREATE TABLE login_locks (
                    user_id TEXT PRIMARY KEY,
                    locked_until BIGINT NOT NULL
                )
                """,
            ]
        },
        Migration(version: 3, name: "CIBA requests and delivery jobs") { _ in
            [
                """
                CREATE TABLE ciba_requests (
                    id TEXT PRIMARY KEY,
                    consent_id TEXT NOT NULL UNIQUE,
                    client_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    audience TEXT,
                    binding_message TEXT NOT NULL,
                    authorization_details TEXT,
                    channel TEXT NOT NULL,
                    approval_token_hash TEXT UNIQUE,
                    ping TEXT,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    decided_at BIGINT
                )
                """,
                // The per-user limit counts a user's requests by creation time.
                "CREATE INDEX ciba_requests_user_created ON ciba_requests (user_id, created_at)",
                "CREATE INDEX ciba_requests_expiry ON ciba_requests (expires_at)",
                """
                CREATE TABLE delivery_jobs (
                    id TEXT PRIMARY KEY,
                    kind TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    attempts BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_error TEXT
                )
                """,
                // Claims look for due jobs; the purge deletes by expiry.
                "CREATE INDEX delivery_jobs_due ON delivery_jobs (next_attempt_at)",
                "CREATE INDEX delivery_jobs_expiry ON delivery_jobs (expires_at)",
            ]
        },
        Migration(version: 4, name: "authenticator devices") { ddl in
            [
                """
                CREATE TABLE device_enrollments (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    name TEXT NOT NULL,
                    push_service TEXT,
                    push_token TEXT,
                    push_disabled \(ddl.boolean) NOT NULL,
                    public_key_n TEXT NOT NULL,
                    public_key_e TEXT NOT NULL,
                    token_hash TEXT NOT NULL UNIQUE,
                    totp_secret TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    UNIQUE (user_id, identifier)
                )
                """,
                "CREATE INDEX device_enrollments_user ON device_enrollments (user_id, created_at)",
                """
                CREATE TABLE device_transactions (
                    token_hash TEXT PRIMARY KEY,
                    request_id TEXT NOT NULL,
                    enrollment_id TEXT NOT NULL,
                    challenge TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                // A device lists its transactions oldest first; a decided request's are found by request_id;
                // the purge deletes by expiry.
                "CREATE INDEX device_transactions_enrollment ON device_transactions (enrollment_id, created_at)",
                "CREATE INDEX device_transactions_request ON device_transactions (request_id)",
                "CREATE INDEX device_transactions_expiry ON device_transactions (expires_at)",
            ]
        },
        // Transaction tokens became JWTs naming the transaction (nothing secret stored): the table is keyed
        // by transaction id, one per (request, device). No release wrote rows under version 4.
        Migration(version: 5, name: "device transactions by id") { _ in
            [
                "DROP TABLE device_transactions",
                """
                CREATE TABLE device_transactions (
                    id TEXT PRIMARY KEY,
                    request_id TEXT NOT NULL,
                    enrollment_id TEXT NOT NULL,
                    challenge TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    UNIQUE (request_id, enrollment_id)
                )
                """,
                "CREATE INDEX device_transactions_enrollment ON device_transactions (enrollment_id, created_at)",
                "CREATE INDEX device_transactions_expiry ON device_transactions (expires_at)",
            ]
        },
        // MARK: version 6, post-login rules (SPEC §8)
        // Logins read the enabled rules in run order: the index serves that query and the list.
        Migration(version: 6, name: "post-login rules") { ddl in
            [
                """
                CREATE TABLE post_login_rules (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    enabled \(ddl.boolean) NOT NULL,
                    rule_order BIGINT NOT NULL,
                    condition TEXT NOT NULL,
                    deny_reason TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX post_login_rules_order ON post_login_rules (rule_order, created_at, id)",
            ]
        },
        // MARK: end of version 6
        // MARK: version 7, revoked refresh-token families (RFC 9700 §4.14.2, SPEC §3), login housekeeping
        // A family revoked by reuse detection, a code replay or /oauth/revoke is recorded here, also when it has no
        // token yet, so that a successor inserted after the revocation (a rotation racing it) is refused.
        // Housekeeping purges login failures by date (those of unknown addresses included) and locks by end.
        Migration(version: 7, name: "revoked refresh-token families, login housekeeping") { _ in
            [
                "CREATE TABLE refresh_token_families (family_id TEXT PRIMARY KEY, revoked_at BIGINT NOT NULL)",
                "CREATE INDEX login_failures_at ON login_failures (at)",
                "CREATE INDEX login_locks_end ON login_locks (locked_until)",
            ]
        },
        // MARK: end of version 7
        // MARK: version 8, registered clients (SPEC §13) expire 30 days after their last token
        Migration(version: 8, name: "registered clients' expiry") { _ in
            [
                "ALTER TABLE clients ADD COLUMN expires_at BIGINT",
                "CREATE INDEX clients_expiry ON clients (expires_at)",
            ]
        },
        // MARK: end of version 8
        // MARK: version 9, multi-factor authentication at sign-in (SPEC §12)
        // The tenant's factors and policy; OTP-only authenticators; per user the last used TOTP step (replay), the
        // wrong codes and the lock (the throttle), the recovery code by hash, the recent successful logins (the
        // confidence score keeps 10, read newest first); when a device last proved the user; what an SSO session
        // did (`amr`); what a post-login rule does.
        Migration(version: 9, name: "multi-factor authentication") { ddl in
            [
                "CREATE TABLE mfa_factors (name TEXT PRIMARY KEY, enabled \(ddl.boolean) NOT NULL)",
                "CREATE TABLE mfa_policies (name TEXT PRIMARY KEY)",
                """
                CREATE TABLE otp_authenticators (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_auth_at BIGINT
                )
                """,
                "CREATE INDEX otp_authenticators_user ON otp_authenticators (user_id, created_at)",
                "CREATE TABLE otp_steps (user_id TEXT PRIMARY KEY, last_step BIGINT NOT NULL)",
                "CREATE TABLE otp_failures (user_id TEXT NOT NULL, at BIGINT NOT NULL)",
                "CREATE INDEX otp_failures_user ON otp_failures (user_id, at)",
                "CREATE TABLE otp_locks (user_id TEXT PRIMARY KEY, locked_until BIGINT NOT NULL)",
                """
                CREATE TABLE recovery_codes (
                    user_id TEXT PRIMARY KEY,
                    code_hash TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE recent_logins (
                    id \(ddl.serialPrimaryKey),
                    user_id TEXT NOT NULL,
                    network TEXT,
                    device_hash TEXT,
                    did_mfa \(ddl.boolean) NOT NULL,
                    at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX recent_logins_user ON recent_logins (user_id, at)",
                "ALTER TABLE device_enrollments ADD COLUMN last_auth_at BIGINT",
                "ALTER TABLE sessions ADD COLUMN amr TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE post_login_rules ADD COLUMN action TEXT NOT NULL DEFAULT 'deny'",
            ]
        },
        // MARK: end of version 9
        // MARK: version 10, user search through indexes (SPEC §9, issue 16); 9 is multi-factor authentication's
        Migration(version: 10, name: "user search indexes and metadata projection") { Migration.userSearchIndexes($0) },
        // MARK: end of version 10
        // MARK: version 11, bulk-users jobs (SPEC §9 "Bulk users")
        // A job's state; an import's rejected entries by index; an export's output in parts, read in order.
        Migration(version: 11, name: "bulk-users jobs") { ddl in
            [
                """
                CREATE TABLE user_jobs (
                    id TEXT PRIMARY KEY,
                    type TEXT NOT NULL,
                    status TEXT NOT NULL,
                    connection_id TEXT NOT NULL,
                    upsert \(ddl.boolean) NOT NULL,
                    format TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    inserted BIGINT NOT NULL,
                    updated BIGINT NOT NULL,
                    failed BIGINT NOT NULL,
                    total BIGINT NOT NULL,
                    failure TEXT
                )
                """,
                "CREATE INDEX user_jobs_status ON user_jobs (status, updated_at)",
                """
                CREATE TABLE user_job_errors (
                    job_id TEXT NOT NULL,
                    entry_index BIGINT NOT NULL,
                    entry TEXT NOT NULL,
                    errors TEXT NOT NULL,
                    PRIMARY KEY (job_id, entry_index)
                )
                """,
                """
                CREATE TABLE user_export_parts (
                    job_id TEXT NOT NULL,
                    sequence BIGINT NOT NULL,
                    text TEXT NOT NULL,
                    PRIMARY KEY (job_id, sequence)
                )
                """,
            ]
        },
        // MARK: end of version 11
        // MARK: version 12, sign-in pushes (SPEC §12)
        // The hosted page finds its newest push by its transaction's hash; the push-fatigue cap counts a user's
        // pending ones; the purge deletes by expiry.
        Migration(version: 12, name: "login challenges") { _ in
            [
                """
                CREATE TABLE login_challenges (
                    id TEXT PRIMARY KEY,
                    transaction_hash TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    source TEXT,
                    location TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    decided_at BIGINT
                )
                """,
                "CREATE INDEX login_challenges_transaction ON login_challenges (transaction_hash, created_at)",
                "CREATE INDEX login_challenges_user ON login_challenges (user_id, status, expires_at)",
                "CREATE INDEX login_challenges_expiry ON login_challenges (expires_at)",
            ]
        },
        // MARK: version 13, fewer B-trees per user on SQLite (issue 16)
        Migration(version: 13, name: "leaner user search on SQLite") { Migration.leanerUserSearch($0) },
        // MARK: version 14, connections (SPEC §15)
        Migration(version: 14, name: "connections") { Migration.connections($0) },
        // MARK: version 15, users of other connections (SPEC §15)
        Migration(version: 15, name: "federated users and identities") { Migration.federatedUsers($0) },
        // MARK: version 16, sign-up, verification, reset and the password history (SPEC §15.1)
        Migration(version: 16, name: "accounts") { Migration.accounts($0) },
        // MARK: version 17, the given and family names of a user (SPEC §15 "Users", §15.1 sign-up)
        Migration(version: 17, name: "given and family names") { _ in
            [
                "ALTER TABLE users ADD COLUMN given_name TEXT",
                "ALTER TABLE users ADD COLUMN family_name TEXT",
            ]
        },
        // MARK: version 18, passkeys and security keys (SPEC §17)
        Migration(version: 18, name: "WebAuthn credentials") { Migration.webAuthnCredentials($0) },
        // MARK: version 19, the settings of the WebAuthn second factors (SPEC §17)
        Migration(version: 19, name: "MFA factor settings") { _ in
            ["ALTER TABLE mfa_factors ADD COLUMN settings TEXT"]
        },
        // MARK: version 20, organizations (SPEC §19)
        Migration(version: 20, name: "organizations") { Migration.organizations($0) },
        // MARK: version 21, the organization a refresh token was issued for (SPEC §19 "kept through refresh")
        Migration(version: 21, name: "organization of refresh tokens") { _ in
            ["ALTER TABLE refresh_tokens ADD COLUMN organization_id TEXT"]
        },
    ]
}
