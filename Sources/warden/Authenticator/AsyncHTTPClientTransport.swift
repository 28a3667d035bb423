import Foundation
import WardenAuthenticator

import struct WardenClient.AsyncHTTPTransport
import struct WardenClient.HTTPRequest

/// The terminal authenticator's ``WardenAuthenticator/HTTPTransport``: the application SDK's AsyncHTTPClient
/// transport (redirects refused, bodies bounded) behind the device SDK's protocol. URLSession's Linux
/// implementation (FoundationNetworking) would load libcurl and its two dozen libraries into every `warden`
/// process, the server's too; AsyncHTTPClient is linked anyway.
struct AsyncHTTPClientTransport: HTTPTransport {
    var base: AsyncHTTPTransport = .shared

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await base.send(
            HTTPRequest(
                method: request.method, url: request.url, headers: request.headers.map { ($0.key, $0.value) },
                body: request.body))
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return TransportResponse(status: response.status, headers: headers, body: response.body)
    }
}
