import SQLKit

/// The columns of `base` whose names start with `prefix`, under their names without it: a table's columns
/// selected under aliases in a join (`users.email AS user_email`) read by that table's own row decoder.
struct PrefixedSQLRow: SQLRow {
    let base: any SQLRow
    let prefix: String

    var allColumns: [String] {
        base.allColumns.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    func contains(column: String) -> Bool {
        base.contains(column: prefix + column)
    }

    func decodeNil(column: String) throws -> Bool {
        try base.decodeNil(column: prefix + column)
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        try base.decode(column: prefix + column, as: D.self)
    }
}
