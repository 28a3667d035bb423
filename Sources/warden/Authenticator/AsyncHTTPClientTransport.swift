import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import WardenAuthenticator

/// The terminal authenticator's ``HTTPTransport``: AsyncHTTPClient, which the server links anyway, instead of
/// URLSession, whose Linux implementation (FoundationNetworking) would load libcurl and its two dozen libraries
/// into every `warden` process, the server's too.
struct AsyncHTTPClientTransport: HTTPTransport {
    var client: HTTPClient = .shared
    /// The per-request deadline.
    var timeout: TimeAmount = .seconds(30)
    /// The largest response body read (the SDK's answers are a few KiB).
    var maxBodyBytes = 1 << 20

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(data: body)) }
        let response = try await client.execute(outgoing, timeout: timeout)
        let body = try await response.body.collect(upTo: maxBodyBytes)
        var headers: [String: String] = [:]
        for header in response.headers {
            headers[header.name] = headers[header.name].map { "\($0), \(header.value)" } ?? header.value
        }
        return TransportResponse(status: Int(response.status.code), headers: headers, body: Data(buffer: body))
    }
}
