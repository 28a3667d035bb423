import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import WardenCore
import WardenWire

/// The parameters of an Authentication API request, from an `application/x-www-form-urlencoded` or an
/// `application/json` body (SPEC conventions): `null` and empty strings count as absent, repeated form
/// parameters are refused, JSON arrays and objects are kept as their JSON text (`authorization_details`).
struct RequestParameters: Sendable {
    private(set) var values: [String: String]
    /// Whether `resource` came more than once (form) or as an array of several (JSON): RFC 8707 lets it
    /// repeat, so it is not refused here; ``ResourceIndicator`` answers `invalid_target` (SPEC §5).
    private(set) var resourceRepeated = false

    init(_ values: [String: String]) {
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }

    /// Reads and parses the body of `request`; errors are ``OAuthError``s.
    static func read(from request: Request) async throws -> RequestParameters {
        let mediaType = HeaderValue.mediaType(request.headers[.contentType])
        let buffer = try await RequestBodyReader.collect(
            request, tooLarge: OAuthError(.invalidRequest, "The request body is larger than 64 KiB", status: 413))
        switch mediaType {
        case "application/x-www-form-urlencoded":
            return try parseForm(String(buffer: buffer))
        case "application/json":
            return try parseJSON(buffer)
        default:
            throw OAuthError.invalidRequest(
                "Content-Type must be application/x-www-form-urlencoded or application/json")
        }
    }

    /// Parses a form body, refusing duplicated parameters; an empty value counts as a repeat too
    /// (`grant_type=&grant_type=client_credentials`, SPEC §11), though it is absent on its own.
    static func parseForm(_ text: String) throws(OAuthError) -> RequestParameters {
        var values: [String: String] = [:]
        var seen: Set<String> = []
        var resourceRepeated = false
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeComponent(parts[0]) else {
                throw .invalidRequest("The request body is not valid form encoding")
            }
            let value = parts.count > 1 ? decodeComponent(parts[1]) : ""
            guard let value else { throw .invalidRequest("The request body is not valid form encoding") }
            guard seen.insert(name).inserted else {
                // RFC 8707 §2: `resource` is the one parameter that may repeat (a repeat is invalid_target).
                guard name == "resource" else { throw .invalidRequest("Parameter '\(name)' is repeated") }
                resourceRepeated = true
                continue
            }
            if !value.isEmpty { values[name] = value }
        }
        var parameters = RequestParameters(values)
        parameters.resourceRepeated = resourceRepeated
        return parameters
    }

    /// Parses a JSON object body.
    static func parseJSON(_ buffer: ByteBuffer) throws(OAuthError) -> RequestParameters {
        guard case .object(let object)? = try? JSONValue(parsing: buffer.readableBytesView)
        else { throw .invalidRequest("The request body is not a JSON object") }
        var values: [String: String] = [:]
        var resourceRepeated = false
        for (name, value) in object {
            if name == "resource", case .array(let resources) = value {
                // RFC 8707 §2 in JSON: one resource may come as a one-element array.
                resourceRepeated = resources.count > 1
                if let first = resources.first?.stringValue, !first.isEmpty { values[name] = first }
                continue
            }
            switch value {
            case .null: continue
            case .string(let text): if !text.isEmpty { values[name] = text }
            case .bool(let flag): values[name] = flag ? "true" : "false"
            case .number: values[name] = value.serialized
            case .array, .object: values[name] = value.serialized
            }
        }
        var parameters = RequestParameters(values)
        parameters.resourceRepeated = resourceRepeated
        return parameters
    }

    private static func decodeComponent(_ component: Substring) -> String? {
        PercentDecoding.decode(component, plusIsSpace: true)
    }
}
