public import Foundation

/// Sends the SDK's HTTP requests.
///
/// ``AsyncHTTPTransport`` (AsyncHTTPClient, on Linux and Apple platforms) is the default. Inject another
/// conformance to use a different client, to add logging or certificate pinning, or to record requests in
/// tests. A transport throws only when no response arrived; an error status is a response, and a redirect is
/// returned as it is, not followed.
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// An HTTP request as the SDK sends it.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `"POST"`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields in order; a name may repeat.
    public var headers: [(String, String)]
    /// The body, when there is one.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [(String, String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response as the SDK reads it.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in order; a name may repeat (`Set-Cookie`).
    public var headers: [(String, String)]
    /// The body (empty when none).
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
