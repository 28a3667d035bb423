public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// An ``HTTPTransport`` over AsyncHTTPClient.
///
/// ``shared`` uses one process-wide client that never follows redirects (the SDK reads every answer itself)
/// and is never shut down. Pass your own `HTTPClient` to control TLS, proxies and timeouts; you then shut it down.
public struct AsyncHTTPTransport: HTTPTransport {
    /// The process-wide transport.
    public static let shared = AsyncHTTPTransport(client: sharedClient)

    /// Bodies larger than this are refused (Warden's answers are a few KiB).
    static let maximumBodySize = 4 * 1024 * 1024
    private static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(30), read: .seconds(60))))

    private let client: HTTPClient
    /// The per-request deadline.
    public var timeout: Duration

    /// Creates a transport over `client`; requests time out after 60 seconds.
    public init(client: HTTPClient) {
        self.client = client
        self.timeout = .seconds(60)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .init(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(data: body)) }
        let response = try await client.execute(outgoing, timeout: .init(timeout))
        let body = try await response.body.collect(upTo: Self.maximumBodySize)
        return HTTPResponse(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: Data(buffer: body))
    }
}
