import Foundation
import NIOCore

/// A `multipart/form-data` body (RFC 7578): its parts by field name, as `POST /api/v2/jobs/users-imports` sends
/// them (SPEC §9 "Bulk users"). A field given twice keeps its first part.
struct MultipartForm {
    let fields: [String: [UInt8]]

    /// The boundary of a `multipart/form-data` Content-Type, or `nil` for another media type.
    static func boundary(ofContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Parses `body`; `nil` when it is not a well-formed multipart body with `boundary`.
    init?(_ body: ByteBuffer, boundary: String) {
        let bytes = Array(body.readableBytesView)
        let delimiter = Array("--\(boundary)".utf8)
        var fields: [String: [UInt8]] = [:]
        guard var cursor = Self.find(delimiter, in: bytes, from: 0) else { return nil }
        while true {
            cursor += delimiter.count
            // `--` after a delimiter closes the body.
            if bytes[cursor...].starts(with: Array("--".utf8)) { break }
            guard bytes[cursor...].starts(with: Array("\r\n".utf8)),
                let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: bytes, from: cursor + 2),
                let next = Self.find(Array("\r\n".utf8) + delimiter, in: bytes, from: headerEnd + 4)
            else { return nil }
            let headers = String(decoding: bytes[(cursor + 2)..<headerEnd], as: UTF8.self)
            if let name = Self.fieldName(headers), fields[name] == nil {
                fields[name] = Array(bytes[(headerEnd + 4)..<next])
            }
            cursor = next + 2
        }
        self.fields = fields
    }

    /// The `name` of a part's `Content-Disposition: form-data; name="…"`.
    private static func fieldName(_ headers: String) -> String? {
        for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            for parameter in line.split(separator: ";").dropFirst() {
                let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == "name" {
                    return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
