import WardenCore

/// Parses the `q` (or `search`) of `GET /api/v2/logs` into a ``LogFilter`` (SPEC §9):
/// ```
/// query  = [ clause *( [ "AND" ] clause ) ]        ; clauses joined by AND or spaces, one per field
/// clause = term *( "OR" term )                     ; the terms of one field
/// term   = field ":" ( value / "(" value *( "OR" value ) ")" )
/// value  = word / "\"" phrase "\""                 ; a word runs to a space or parenthesis
/// ```
/// over the fields of ``LogFilter/fields``, e.g. `type:(s OR f) AND client_id:abc`. Mistakes are 400
/// `invalid_query_string` naming the position (counted in characters from 1).
enum LogQuery {
    static func parse(_ q: String) throws(ManagementError) -> LogFilter {
        var parser = Parser(scalars: Array(q.unicodeScalars))
        var terms: [String: [String]] = [:]
        parser.skipSpaces()
        while !parser.atEnd {
            let position = parser.position
            let (field, values) = try parser.clause()
            guard terms[field] == nil else {
                throw Parser.error("Field '\(field)' appears twice; join its values with OR", at: position)
            }
            terms[field] = values
            parser.skipSpaces()
            if parser.keyword("AND") {
                parser.skipSpaces()
                if parser.atEnd { throw Parser.error("Expected a term after AND", at: parser.position) }
            }
        }
        return LogFilter(terms: terms)
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        var atEnd: Bool { index >= scalars.count }
        var position: Int { index + 1 }
        var next: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        static func error(_ message: String, at position: Int) -> ManagementError {
            .invalidQuery("Query validation error: \(message) at position \(position)")
        }

        mutating func skipSpaces() {
            while let scalar = next, scalar.properties.isWhitespace { index += 1 }
        }

        /// Consumes `word` when it stands here as a whole word.
        mutating func keyword(_ word: String) -> Bool {
            let candidate = Array(word.unicodeScalars)
            let end = index + candidate.count
            guard end <= scalars.count, Array(scalars[index..<end]) == candidate,
                end == scalars.count || scalars[end].properties.isWhitespace
            else { return false }
            index = end
            return true
        }

        /// Terms of one field joined by OR: the field and its values.
        mutating func clause() throws(ManagementError) -> (String, [String]) {
            var (field, values) = try term()
            while true {
                let saved = index
                skipSpaces()
                guard keyword("OR") else {
                    index = saved
                    return (field, values)
                }
                skipSpaces()
                let position = self.position
                let (other, more) = try term()
                guard other == field else {
                    throw Self.error("OR joins values of one field ('\(field)', not '\(other)')", at: position)
                }
                values += more.filter { !values.contains($0) }
            }
        }

        mutating func term() throws(ManagementError) -> (String, [String]) {
            let start = position
            var field = ""
            while let scalar = next, scalar.properties.isAlphabetic || scalar == "_" {
                field.unicodeScalars.append(scalar)
                index += 1
            }
            guard !field.isEmpty, next == ":" else { throw Self.error("Expected field:value", at: start) }
            guard LogFilter.fields.contains(field) else {
                throw Self.error(
                    "Unknown field '\(field)' (searchable: \(LogFilter.fields.sorted().joined(separator: ", ")))",
                    at: start)
            }
            index += 1
            guard next == "(" else { return (field, [try value()]) }
            index += 1
            var values: [String] = []
            while true {
                skipSpaces()
                let value = try value()
                if !values.contains(value) { values.append(value) }
                skipSpaces()
                if next == ")" {
                    index += 1
                    return (field, values)
                }
                guard keyword("OR") else { throw Self.error("Expected OR or ')'", at: position) }
            }
        }

        mutating func value() throws(ManagementError) -> String {
            let start = position
            var value = ""
            if next == "\"" {
                index += 1
                while let scalar = next, scalar != "\"" {
                    index += scalar == "\\" ? 1 : 0
                    guard let literal = next else { break }
                    value.unicodeScalars.append(literal)
                    index += 1
                }
                guard next == "\"" else { throw Self.error("Unterminated quoted value", at: start) }
                index += 1
                return value
            }
            while let scalar = next, !scalar.properties.isWhitespace, scalar != "(", scalar != ")", scalar != "\"" {
                value.unicodeScalars.append(scalar)
                index += 1
            }
            guard !value.isEmpty else { throw Self.error("Expected a value", at: start) }
            return value
        }
    }
}
