public import Foundation
public import WardenAuthenticator

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An `HTTPTransport` over `URLSession` (FoundationNetworking on Linux): the transport of an app on Apple
/// platforms, `Authenticator(transport: URLSessionTransport(), keyStore: …)`.
///
/// It lives in a module of its own so that a program that brings its own HTTP client, such as Warden's
/// terminal authenticator on AsyncHTTPClient, does not link FoundationNetworking, which on Linux loads libcurl
/// and some 25 other shared libraries into the process.
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
