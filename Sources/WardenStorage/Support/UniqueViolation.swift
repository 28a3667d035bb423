import PostgresNIO
import WardenCore

/// Recognizes a unique-key violation on either engine, so it can become ``StorageError/conflict(_:)``.
enum UniqueViolation {
    /// PostgreSQL's SQLSTATE `unique_violation`.
    private static let postgresState = "23505"

    static func matches(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteFailure:
            error.isUniqueViolation
        case let error as PSQLError:
            error.serverInfo?[.sqlState] == postgresState
        default:
            false
        }
    }

    /// Runs `body`, turning a unique-key violation into ``StorageError/conflict(_:)`` with `message`.
    static func mapped<T>(_ message: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch  where matches(error) {
            throw StorageError.conflict(message())
        }
    }
}
