import SQLKit

extension Migration {
    /// Version 14 (SPEC §15): connections and the clients each is enabled for. The password database becomes
    /// the connection `Username-Password-Authentication` (strategy `auth0`), enabled for every existing client
    /// (and, through the store, for every new one). Its JSON is written out here, not taken from the model, so
    /// that this migration stays what it was when it shipped.
    static func connections(_ ddl: DDL) -> [SQLQueryString] {
        let database = """
            {"id":"con_UsernamePasswordAuthentication","name":"Username-Password-Authentication",\
            "display_name":"Username-Password-Authentication","strategy":"auth0",\
            "options":{"passwordPolicy":"good"},"is_domain_connection":false,"show_as_button":false,\
            "realms":["Username-Password-Authentication"],"metadata":{}}
            """
        return [
            """
            CREATE TABLE connections (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                strategy TEXT NOT NULL,
                data TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX connections_created ON connections (created_at, id)",
            """
            CREATE TABLE connection_clients (
                connection_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                PRIMARY KEY (connection_id, client_id)
            )
            """,
            "CREATE INDEX connection_clients_client ON connection_clients (client_id)",
            "CREATE TABLE deleted_connections (id TEXT PRIMARY KEY, deleted_at BIGINT NOT NULL)",
            """
            INSERT INTO connections (id, name, strategy, data, created_at, updated_at)
            VALUES ('con_UsernamePasswordAuthentication', 'Username-Password-Authentication', 'auth0', \
            \(literal: database), 0, 0)
            """,
            """
            INSERT INTO connection_clients (connection_id, client_id)
            SELECT 'con_UsernamePasswordAuthentication', client_id FROM clients
            """,
        ]
    }
}
