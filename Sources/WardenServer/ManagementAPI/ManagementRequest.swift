import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat
import WardenCore
import WardenWire

/// Reading Management API requests: JSON bodies with unknown properties refused, path and query parameters,
/// paging (SPEC §9, §11).
enum ManagementRequest {
    /// The JSON object body, or 400 `invalid_body` / 413 `payload_too_large`.
    static func object(_ request: Request) async throws -> [String: JSONValue] {
        guard case .object(let object) = try await json(request) else {
            throw ManagementError.invalidBody("Request body is not a valid JSON object")
        }
        return object
    }

    /// The JSON body of any type (an array for `PUT /guardian/policies`, SPEC §12); 400 `invalid_body` when empty
    /// or not JSON (the message says what is wrong and at which byte), 413 `payload_too_large`.
    static func json(_ request: Request) async throws -> JSONValue {
        let buffer = try await RequestBodyReader.collect(request, tooLarge: ManagementError.payloadTooLarge)
        guard buffer.readableBytes > 0 else { throw ManagementError.invalidBody("Request body is required") }
        do {
            return try JSONValue(parsing: buffer.readableBytesView)
        } catch {
            throw ManagementError.invalidBody("Invalid request payload JSON format: \(error)")
        }
    }

    /// The body, checked to carry only `allowed` properties.
    static func object(_ request: Request, allowed: Set<String>) async throws -> [String: JSONValue] {
        let object = try await object(request)
        try rejectUnknown(object, allowed: allowed)
        return object
    }

    /// 400 `invalid_body` naming the first property not in `allowed`.
    static func rejectUnknown(_ object: [String: JSONValue], allowed: Set<String>, path: String = "") throws {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ManagementError.invalidBody(
                "Payload validation error: 'Additional properties not allowed: \(path)\(unknown)'")
        }
    }

    /// The path parameter `name`, percent-decoded: SDKs encode the `|` of user ids and the `/` of API
    /// identifiers (SPEC §9: `/resource-servers/{id}` accepts the URL-encoded identifier).
    static func parameter(_ name: String, of context: WardenRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }

    /// The query parameters, decoded as HTML forms encode them (`+` is a space: what HTTP clients such as
    /// the vendor's Python SDK send for `q`); the first non-empty value of repeated names wins.
    static func query(_ request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = parts.map { PercentDecoding.decode($0, plusIsSpace: true) }
            // An empty value is an absent parameter (SPEC conventions): `search=&from=` beside `q` is `q` alone.
            guard let name = decoded[0], values[name] == nil, decoded.count > 1, let value = decoded[1],
                !value.isEmpty
            else { continue }
            values[name] = value
        }
        return values
    }

    /// Every value of the query parameter `name`, in order (a repeatable filter such as `strategy`).
    static func queryValues(_ name: String, of request: Request) -> [String] {
        (request.uri.query ?? "").split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentDecoding.decode(parts[0], plusIsSpace: true) == name, parts.count > 1 else { return nil }
            return PercentDecoding.decode(parts[1], plusIsSpace: true)
        }
    }

    /// `page`/`per_page`/`include_totals` (SPEC §9: `per_page` at most 100, `page` from 0).
    static func paging(_ request: Request, defaultPerPage: Int = 50) throws -> (PageRequest, includeTotals: Bool) {
        let query = query(request)
        let page = try integer(query["page"], name: "page", default: 0, range: 0...1_000_000)
        let perPage = try integer(query["per_page"], name: "per_page", default: defaultPerPage, range: 1...100)
        return (PageRequest(page: page, perPage: perPage), query["include_totals"] == "true")
    }

    /// Checkpoint paging `from={id}&take=N` (SPEC §9, N at most 100, default 50): `nil` unless either is given.
    static func checkpoint(_ request: Request) throws -> (from: String?, take: Int)? {
        let query = query(request)
        guard query["from"] != nil || query["take"] != nil else { return nil }
        let take = try integer(query["take"], name: "take", default: 50, range: 1...100)
        return (query["from"].flatMap { $0.isEmpty ? nil : $0 }, take)
    }

    /// `sort=field:1` (ascending) or `field:-1` (descending) over one of `fields`; `nil` when absent.
    static func sort(_ request: Request, fields: Set<String>) throws -> (field: String, ascending: Bool)? {
        guard let text = query(request)["sort"], !text.isEmpty else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, fields.contains(parts[0]), parts[1] == "1" || parts[1] == "-1" else {
            throw ManagementError.invalidQuery(
                "Query validation error: 'sort' must be field:1 or field:-1 with a field among "
                    + fields.sorted().joined(separator: ", "))
        }
        return (parts[0], parts[1] == "1")
    }

    static func integer(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ManagementError.invalidQuery(
                "Query validation error: '\(name)' must be an integer between \(range.lowerBound) and "
                    + "\(range.upperBound)")
        }
        return number
    }

    /// Runs a storage write, answering a taken unique key with 409 `conflict` (`message`, or the store's own
    /// description) and a record that vanished meanwhile with 404 `inexistent_{resource}`.
    static func write<Value>(
        _ resource: String, conflict message: String? = nil, _ operation: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await operation()
        } catch StorageError.conflict(let detail) {
            throw ManagementError.conflict(message ?? detail)
        } catch StorageError.notFound {
            let noun = resource.split(separator: "_").joined(separator: " ")
            throw ManagementError.notFound(resource, "The \(noun) does not exist")
        }
    }
}

/// Writing Management API responses.
enum ManagementResponse {
    /// A bare array, or `{"start","limit","length","total","<name>": [...]}` with `include_totals=true`;
    /// `next` is the checkpoint of the following page, when there is one (`from`/`take` paging).
    static func list(
        _ items: [JSONValue], total: Int, page: PageRequest, includeTotals: Bool, name: String, next: String? = nil
    ) -> Response {
        guard includeTotals else { return .json(.array(items)) }
        var object: [String: JSONValue] = [
            "start": .number(Double(page.offset)), "limit": .number(Double(page.perPage)),
            "length": .number(Double(items.count)), "total": .number(Double(total)), name: .array(items),
        ]
        if let next { object["next"] = .string(next) }
        return .json(.object(object))
    }

    /// One page of a list held in memory (a role's permissions, a user's roles), shaped as
    /// ``list(_:total:page:includeTotals:name:next:)``.
    static func list(
        all items: [JSONValue], page: PageRequest, includeTotals: Bool, name: String
    ) -> Response {
        let slice = items.dropFirst(min(page.offset, items.count)).prefix(page.perPage)
        return list(Array(slice), total: items.count, page: page, includeTotals: includeTotals, name: name)
    }

    /// The members of a Codable model's JSON object (its `nil` properties left out).
    static func members(of value: some Encodable) throws -> [String: JSONValue] {
        let json = try JSONValue(parsing: JSONEncoder().encode(value))
        return json.objectValue ?? [:]
    }

    /// A Codable model as a JSON object.
    static func object(of value: some Encodable) throws -> JSONValue {
        .object(try members(of: value))
    }

    /// An ISO 8601 time with milliseconds in UTC, e.g. `2026-11-22T01:02:03.456Z` (SPEC conventions).
    /// The date is rounded to the millisecond as storage keeps it, so a time shown before and after a round
    /// trip through the database reads the same.
    static func timestamp(_ date: Date) -> JSONValue {
        .string(RFC3339Timestamp.string(millisecondsSince1970: date.millisecondsSince1970))
    }

    /// 204 with no body: a delete or a removal (SPEC §9).
    static var noContent: Response { Response(status: .noContent) }
}
