import Logging
import SQLKit
import WardenCore

import struct Foundation.Date

extension SQLStore {
    /// Applies the migrations this database lacks, in order, and records each in `schema_migrations`.
    ///
    /// Idempotent: a second call applies nothing. All of it runs in one transaction — on PostgreSQL under an
    /// advisory lock, on SQLite under `BEGIN IMMEDIATE` — so nodes that start together apply each migration
    /// exactly once and a failed migration leaves the schema as it was. A database a newer release migrated is
    /// refused (``SchemaTooNewError``, naming both versions) and left untouched.
    /// - Returns: The versions applied by this call, in order.
    @discardableResult
    public func migrate() async throws -> [Int] {
        let engine = engine
        let applied = try await transaction(lock: .migrations) { db in
            try await db.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)"
            ).run()
            let present = Set(
                try await db.select().column("version").from("schema_migrations")
                    .all(decodingColumn: "version", as: Int.self))
            if let newest = present.max(), newest > Migration.latestVersion {
                throw SchemaTooNewError(database: newest)
            }
            var applied: [Migration] = []
            for migration in Migration.all where !present.contains(migration.version) {
                for statement in migration.statements(DDL(engine: engine)) {
                    try await db.raw(statement).run()
                }
                try await db.insert(into: "schema_migrations")
                    .columns("version", "applied_at")
                    .values(migration.version, Date().millisecondsSince1970)
                    .run()
                applied.append(migration)
            }
            return applied
        }
        for migration in applied {
            logger.info(
                "Applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
        }
        return applied.map(\.version)
    }
}
