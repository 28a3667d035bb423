public import Foundation
import WardenCore

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// The per-request timeout.
    public var timeout: TimeInterval

    /// Creates a transport over `session` (an ephemeral session by default: no cookies, no cache on disk).
    public init(session: URLSession = URLSession(configuration: .ephemeral), timeout: TimeInterval = 30) {
        self.session = session
        self.timeout = timeout
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw AuthenticatorError(kind: .transport, detail: "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
