import NIOCore
import SQLiteNIO
// The SQLite that sqlite-nio builds and SQLiteNIO links: a target of that package, not a product, so it comes
// with the SQLiteNIO dependency rather than one of its own in Package.swift.
import VaporCSQLite

/// The writer's SQLite connection, called synchronously on ``SQLiteExecutor``'s thread (SQLite §c3ref).
///
/// It is the SQLite library SQLiteNIO builds (`VaporCSQLite`), the one the read-only connections use: two copies
/// of SQLite in one process would not see each other's POSIX locks on the same file. It keeps the prepared form
/// of the short statements it runs (``cachedStatementLimit``), so a statement seen before is not compiled again.
/// ``SQLiteWriter`` serializes every call to it.
final class SQLiteWriterConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// How many prepared statements are kept. The store's statements are a few hundred fixed texts; texts that
    /// vary would grow the cache without end, so at the limit it starts again empty.
    static let cachedStatementLimit = 256
    /// The most values a kept statement binds. A batch insert of n rows is a text of its own for each n, and its
    /// prepared program grows with its rows (hundreds of KiB for 500): those are prepared for each use.
    static let cachedBindLimit = 64

    /// Opens `path` (`:memory:` for an in-memory database) for reading and writing, creating the file if needed.
    init(path: String) throws {
        let flags =
            SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI
            | SQLITE_OPEN_EXRESCODE
        var handle: OpaquePointer?
        let code = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let error = SQLiteFailure(code: code, message: "cannot open the SQLite database at \(path)")
            sqlite_nio_sqlite3_close(handle)
            throw error
        }
        self.handle = handle
    }

    /// Runs one statement with `binds`, handing each result row to `onRow` as SQLite produces it.
    func run(_ sql: String, _ binds: [SQLiteData], _ onRow: (SQLiteWriterRow) -> Void) throws {
        let kept = binds.count <= Self.cachedBindLimit
        let statement = try kept ? prepared(sql) : prepare(sql, flags: 0)
        defer {
            if kept {
                sqlite_nio_sqlite3_reset(statement)
                sqlite_nio_sqlite3_clear_bindings(statement)
            } else {
                sqlite_nio_sqlite3_finalize(statement)
            }
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), of: statement))
        }
        var columns: SQLiteWriterRow.Columns?
        while true {
            let code = sqlite_nio_sqlite3_step(statement)
            guard code == SQLITE_ROW else {
                guard code == SQLITE_DONE else { throw failure(code) }
                return
            }
            let names = columns ?? Self.columns(of: statement)
            columns = names
            var values: [SQLiteData] = []
            values.reserveCapacity(names.names.count)
            for index in names.names.indices {
                values.append(Self.value(at: Int32(index), of: statement))
            }
            onRow(SQLiteWriterRow(columns: names, values: values))
        }
    }

    /// Finalizes the statements and closes the connection.
    func close() {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements = [:]
        sqlite_nio_sqlite3_close(handle)
        handle = nil
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        if statements.count >= Self.cachedStatementLimit {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            statements = [:]
        }
        let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        statements[sql] = statement
        return statement
    }

    private func prepare(_ sql: String, flags: UInt32) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return statement
    }

    private func bind(_ value: SQLiteData, at index: Int32, of statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double):
            sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text):
            sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            buffer.withUnsafeReadableBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
            }
        case .null:
            sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private static func columns(of statement: OpaquePointer) -> SQLiteWriterRow.Columns {
        let count = sqlite_nio_sqlite3_column_count(statement)
        return SQLiteWriterRow.Columns(
            names: (0..<count).map { sqlite_nio_sqlite3_column_name(statement, $0).map { String(cString: $0) } ?? "" })
    }

    private static func value(at index: Int32, of statement: OpaquePointer) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, index)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let bytes = UnsafeRawBufferPointer(
                start: sqlite_nio_sqlite3_column_text(statement, index),
                count: Int(sqlite_nio_sqlite3_column_bytes(statement, index)))
            return .text(String(decoding: bytes, as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = UnsafeRawBufferPointer(
                start: sqlite_nio_sqlite3_column_blob(statement, index),
                count: Int(sqlite_nio_sqlite3_column_bytes(statement, index)))
            return .blob(ByteBuffer(bytes: bytes))
        default:
            return .null
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code, message: sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "")
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A result code of SQLite other than success, with the connection's message (SQLite §rescode).
struct SQLiteFailure: Error, CustomStringConvertible {
    /// The extended result code, e.g. 2067 for `SQLITE_CONSTRAINT_UNIQUE`.
    let code: Int32
    let message: String

    var description: String { "SQLite error \(code): \(message)" }

    /// `SQLITE_CONSTRAINT_UNIQUE` or `SQLITE_CONSTRAINT_PRIMARYKEY` (SQLite §extrc).
    var isUniqueViolation: Bool { code == 2067 || code == 1555 }
}
