import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// ``PreparedResponseHandler``: the JWKS (RFC 7517 §5, SPEC §2) answered on the event loop with the router's
/// headers, and HTTP/1.1's response order (RFC 9112 §9.3.2) kept when requests are pipelined.
@Suite("Prepared responses")
struct PreparedResponseHandlerTests {
    let ring: KeyRing
    let channel: EmbeddedChannel

    init() throws {
        ring = try KeyRing(records: [try JWSKey.generate(alg: .es256, now: Date())])
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let responses = PreparedResponses(keys: ring, serverName: "Warden", logger: logger)
        channel = EmbeddedChannel(handler: responses.handler())
    }

    func request(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:]) throws {
        try channel.writeInbound(
            HTTPRequestPart.head(
                HTTPRequest(method: method, scheme: nil, authority: "h", path: path, headerFields: headers)))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    struct Answer: Equatable {
        var head: HTTPResponse
        var body: String
    }

    /// The parts of one response written to the socket, or nil when nothing was written.
    func response() throws -> Answer? {
        guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else { return nil }
        var body = ""
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
            if case .body(let bytes) = part { body += String(buffer: bytes) }
            if case .end = part { return Answer(head: head, body: body) }
        }
        Issue.record("the response did not end")
        return nil
    }

    /// The request parts that went on to the router.
    func forwarded() throws -> [HTTPRequestPart] {
        var parts: [HTTPRequestPart] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) { parts.append(part) }
        return parts
    }

    @Test func theJWKSIsAnsweredWithTheRoutersHeaders() throws {
        try request(.get, "/.well-known/jwks.json")
        let answer = try #require(try response())
        #expect(answer.head.status == .ok)
        #expect(answer.body == ring.snapshot.jwksJSON)
        // SPEC §2: every published public key, with `kid`, `kty`, `alg` and `use: "sig"`.
        let keys = try JSONDecoder().decode(JSONValue.self, from: Data(answer.body.utf8))["keys"]?.arrayValue ?? []
        #expect(keys.count == 1)
        for key in keys {
            #expect(key["kid"]?.stringValue == ring.currentKey(for: .es256)?.kid)
            #expect(key["kty"] == "EC" && key["alg"] == "ES256" && key["use"] == "sig")
            #expect(key["d"] == nil, "no private part")
        }
        let fields = answer.head.headerFields
        #expect(fields[.contentType] == "application/json")
        #expect(fields[.contentLength] == String(answer.body.utf8.count))
        #expect(fields[.cacheControl] == "public, max-age=60")
        #expect(fields[.server] == "Warden")
        // Hummingbird's request id: hex, one per request.
        let id = try #require(fields[.requestID])
        #expect(id.count > 16 && id.allSatisfy(\.isHexDigit))
        let date = try #require(fields[.date])
        let parsed = try #require(Self.imfFixdate.date(from: date))
        #expect(abs(parsed.timeIntervalSinceNow) < 5)
        #expect(try forwarded().isEmpty)
        try request(.get, "/.well-known/jwks.json")
        #expect(try response()?.head.headerFields[.requestID] != id)
    }

    @Test func theRequestLineIsTheRoutersWithTheResponsesRequestID() throws {
        let lines = CapturedLines()
        var logger = Logger(label: "test") { _ in lines }
        logger.logLevel = .info
        let responses = PreparedResponses(keys: ring, serverName: "Warden", logger: logger)
        let channel = EmbeddedChannel(handler: responses.handler())
        try channel.writeInbound(
            HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: "h", path: "/.well-known/jwks.json"))
        )
        try channel.writeInbound(HTTPRequestPart.end(nil))
        guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no answer")
            return
        }
        #expect(lines.recorded.count == 1)
        let line = try #require(lines.recorded.first)
        #expect(line.message == "request")
        #expect(line.metadata["hb.request.id"] == head.headerFields[.requestID].map { "\($0)" })
        #expect(line.metadata["method"] == "GET" && line.metadata["route"] == "/.well-known/jwks.json")
        #expect(line.metadata["status"] == "200" && line.metadata["duration_ms"] != nil)
    }

    /// The lines logged through it, as a test reads them.
    final class CapturedLines: LogHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [(message: String, metadata: Logger.Metadata)] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        var recorded: [(message: String, metadata: Logger.Metadata)] { lock.withLock { lines } }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: Logging.LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            lock.withLock { lines.append((event.message.description, merged)) }
        }
    }

    @Test func aRotatedRingIsServedAtOnce() throws {
        try request(.get, "/.well-known/jwks.json")
        let before = try #require(try response()).body
        try ring.replace(records: [try JWSKey.generate(alg: .rs256, now: Date())])
        try request(.get, "/.well-known/jwks.json")
        let after = try #require(try response()).body
        #expect(after != before)
        #expect(after == ring.snapshot.jwksJSON)
    }

    @Test(arguments: [
        (HTTPRequest.Method.get, "/.well-known/jwks.json?x=1", HTTPFields()),
        (.head, "/.well-known/jwks.json", HTTPFields()),
        (.post, "/.well-known/jwks.json", HTTPFields()),
        (.get, "/.well-known/openid-configuration", HTTPFields()),
        (.get, "/.well-known/jwks.json", HTTPFields([HTTPField(name: .connection, value: "close")])),
    ])
    func otherRequestsGoToTheRouter(method: HTTPRequest.Method, path: String, headers: HTTPFields) throws {
        try request(method, path, headers: headers)
        #expect(try response() == nil)
        let parts = try forwarded()
        #expect(parts.count == 2)
        guard case .head(let head)? = parts.first else {
            Issue.record("no head forwarded")
            return
        }
        #expect(head.path == path)
    }

    @Test func aPipelinedJWKSRequestWaitsForTheRoutersAnswer() throws {
        // A slow request with the router, then the JWKS request read behind it on the same connection.
        try request(.post, "/oauth/token")
        try request(.get, "/.well-known/jwks.json")
        #expect(try response() == nil)
        #expect(try forwarded().count == 4)
        // The router answers both, in order; the next JWKS request finds the connection idle again.
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        #expect(try response()?.body == "")
        #expect(try response()?.body == "")
        try request(.get, "/.well-known/jwks.json")
        #expect(try response()?.body == ring.snapshot.jwksJSON)
        #expect(try forwarded().isEmpty)
    }

    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),  // RFC 9110 §5.6.7's example
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_798_761_599, "Thu, 31 Dec 2026 23:59:59 GMT"),
    ])
    func httpDates(epochSeconds: Int, text: String) {
        #expect(HTTPDateCache.format(epochSeconds: epochSeconds) == text)
    }

    @Test func httpDatesAgreeWithFoundationForAYearOfDays() {
        for day in stride(from: 19_000 * 86_400, to: 19_400 * 86_400, by: 86_400 + 3_661) {
            #expect(
                HTTPDateCache.format(epochSeconds: day)
                    == Self.imfFixdate.string(from: Date(timeIntervalSince1970: Double(day))))
        }
    }

    static let imfFixdate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}
