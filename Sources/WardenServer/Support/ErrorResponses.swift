import HTTPTypes
public import Hummingbird
import NIOCore
public import WardenCore
public import WardenWire

extension OAuthError: HTTPResponseError {
    public var status: HTTPResponse.Status { .init(code: statusCode) }

    /// `{"error","error_description"}` with `Cache-Control: no-store` (RFC 6749 §5.2) and any extra headers.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields: HTTPFields = [
            .contentType: "application/json", .cacheControl: "no-store", HTTPField.Name("Pragma")!: "no-cache",
        ]
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields[name] = header.value }
        }
        return Response(
            status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body.serialized)))
    }
}

extension ManagementError: HTTPResponseError {
    public var status: HTTPResponse.Status { .init(code: statusCode) }

    /// `{"statusCode","error","message","errorCode"}` (SPEC §9).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body.serialized)))
    }
}

extension Response {
    /// A JSON response from already-serialized text.
    static func json(_ text: String, status: HTTPResponse.Status = .ok, noStore: Bool = false) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if noStore {
            headers[.cacheControl] = "no-store"
            headers[HTTPField.Name("Pragma")!] = "no-cache"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A JSON response of a ``JSONValue``.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, noStore: Bool = false) -> Response {
        json(value.serialized, status: status, noStore: noStore)
    }
}
