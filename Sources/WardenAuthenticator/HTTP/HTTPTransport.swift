public import Foundation

/// An HTTP request as the SDK sends it.
public struct TransportRequest: Sendable, Hashable {
    /// The method, e.g. `"POST"`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields by name (the SDK uses canonical capitalisation).
    public var headers: [String: String]
    /// The body, when there is one.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response as the SDK reads it.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields by name.
    public var headers: [String: String]
    /// The body (empty when none).
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Sends the SDK's HTTP requests.
///
/// `URLSessionTransport` (module WardenAuthenticatorURLSession: URLSession on Apple platforms, FoundationNetworking
/// on Linux) is the usual one. Write another conformance to use a different client (Warden's terminal
/// authenticator uses AsyncHTTPClient), to add certificate pinning or logging, or to test without a server. A
/// transport throws only when no response arrived; an error status is a response.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
