import SQLKit
import WardenCore
import WardenWire

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

    /// A column of JSON object text, read with ``JSONValue/init(parsing:)-(String)`` (the metadata of every user read).
    func jsonObject(_ column: String) throws -> [String: JSONValue] {
        guard case .object(let object) = try JSONValue(parsing: decode(column: column, as: String.self)) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Column '\(column)' does not hold a JSON object"))
        }
        return object
    }

    func json<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        try JSONColumn.decode(Value.self, from: decode(column: column, as: String.self))
    }
}
