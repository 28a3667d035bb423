import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import WardenAuthenticator

/// Carries the device SDK's requests into the application under test (the path and query of each URL; the
/// host is the issuer's), so the SDK and the server are tested together without a socket.
struct RouterTransport: HTTPTransport {
    let client: any TestClientProtocol

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var uri = request.url.path
        if let query = request.url.query { uri += "?" + query }
        var headers = HTTPFields()
        for (name, value) in request.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        let response = try await client.execute(
            uri: uri, method: HTTPRequest.Method(request.method) ?? .get, headers: headers,
            body: request.body.map { ByteBuffer(data: $0) })
        var fields: [String: String] = [:]
        for field in response.headers { fields[field.name.canonicalName] = field.value }
        return TransportResponse(status: Int(response.status.code), headers: fields, body: Data(buffer: response.body))
    }
}
