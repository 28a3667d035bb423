import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// One request as the fakes see it, whatever the transport (HTTP/1.1, or HTTP/2 through the HTTP/1 codec).
struct FakeRequest: Sendable {
    var method: HTTPMethod
    var path: String
    var headers: HTTPHeaders
    var body: Data

    /// The value of `name` (case-insensitive), several fields joined with ", ".
    func header(_ name: String) -> String? {
        let values = headers[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The header fields by lower-cased name, for the record of what was received.
    var headerDictionary: [String: String] {
        Dictionary(headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
    }
}

/// An answer of a fake: a status, header fields and a JSON body.
struct FakeResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data = Data()

    /// `object` as compact JSON with sorted keys.
    static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> FakeResponse {
        let body =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return FakeResponse(status: status, headers: [("content-type", "application/json")] + headers, body: body)
    }
}

typealias FakeResponder = @Sendable (FakeRequest) -> FakeResponse

/// Collects one request (head, body, end) and writes the responder's answer.
final class FakeRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let respond: FakeResponder
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(_ respond: @escaping FakeResponder) {
        self.respond = respond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            let response = respond(
                FakeRequest(method: head.method, path: head.uri, headers: head.headers, body: Data(buffer: body)))
            var headers = HTTPHeaders(response.headers)
            headers.replaceOrAdd(name: "content-length", value: "\(response.body.count)")
            let responseHead = HTTPResponseHead(
                version: head.version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

/// The listening sockets of the fakes, all on 127.0.0.1.
enum FakeHTTPServer {
    enum Transport {
        /// Plain HTTP/1.1 (the control port).
        case plain
        /// HTTP/1.1 over TLS (FCM).
        case http1TLS(NIOSSLContext)
        /// HTTP/2 over TLS, ALPN `h2` (APNs).
        case http2TLS(NIOSSLContext)
    }

    /// TLS with the certificate chain and key of `--cert`/`--key`, offering `protocols` over ALPN.
    static func tlsContext(certificate: String, key: String, protocols: [String]) throws -> NIOSSLContext {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        tls.applicationProtocols = protocols
        return try NIOSSLContext(configuration: tls)
    }

    /// Listens on `port` and answers every request with `respond`.
    static func bind(port: Int, transport: Transport, respond: @escaping FakeResponder) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    switch transport {
                    case .plain:
                        try pipeline.configureHTTPServerPipeline()
                        try pipeline.addHandler(FakeRequestHandler(respond))
                    case .http1TLS(let context):
                        try pipeline.addHandler(NIOSSLServerHandler(context: context))
                        try pipeline.configureHTTPServerPipeline()
                        try pipeline.addHandler(FakeRequestHandler(respond))
                    case .http2TLS(let context):
                        try pipeline.addHandler(NIOSSLServerHandler(context: context))
                        _ = try pipeline.configureHTTP2Pipeline(
                            mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandlers([
                                    HTTP2FramePayloadToHTTP1ServerCodec(), FakeRequestHandler(respond),
                                ])
                            }
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: port).get()
    }
}
