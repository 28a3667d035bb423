import struct Foundation.Data
import class Foundation.JSONDecoder
import class Foundation.JSONEncoder

/// Reads and writes the JSON text held in `TEXT` columns (`data`, `scope`, the metadata objects).
enum JSONColumn {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }
}
