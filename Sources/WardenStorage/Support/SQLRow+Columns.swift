import SQLKit
import WardenCore

import struct Foundation.Date

/// Typed readers for the column conventions of the schema: times as milliseconds, JSON as text.
extension SQLRow {
    func value<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        try decode(column: column, as: Value.self)
    }

    func date(_ column: String) throws -> Date {
        Date(millisecondsSince1970: try decode(column: column, as: Int64.self))
    }

    func optionalDate(_ column: String) throws -> Date? {
        try decode(column: column, as: Int64?.self).map(Date.init(millisecondsSince1970:))
    }

    func json<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        try JSONColumn.decode(Value.self, from: decode(column: column, as: String.self))
    }
}
