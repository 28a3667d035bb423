import Foundation
import SQLKit

@testable import WardenStorage

extension TestDatabase {
    /// Like ``withStore(_:)``, but on PostgreSQL in a schema of its own (dropped afterwards) instead of the shared
    /// one, so that a test can expect exact sets of rows (every user a search matches, every row it counts).
    func withIsolatedStore<T>(_ body: (SQLStore) async throws -> T) async throws -> T {
        guard self == .postgres, let url = Self.postgresURL else { return try await withStore(body) }
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let isolated = url + (url.contains("?") ? "&" : "?") + "search_path=\(schema)"
        return try await Self.withStore(url: url) { shared in
            try await shared.sql.raw("CREATE SCHEMA \(ident: schema)").run()
            do {
                let result = try await Self.withStore(url: isolated, body)
                try await shared.sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
                return result
            } catch {
                try? await shared.sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
                throw error
            }
        }
    }
}
