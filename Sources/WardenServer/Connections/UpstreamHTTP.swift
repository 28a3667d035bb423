import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import WardenWire

/// Every request Warden makes to an upstream identity provider (SPEC §15 "Sign-in": discovery, JWKS, token,
/// userinfo): `https`, or `http` to a loopback address; a 5 s deadline; no redirects; at most 128 KB of answer;
/// one pooled client for the whole process (like `HTTPClient.shared`, never shut down). An upstream that is down or
/// slow fails only the request that needed it.
final class UpstreamHTTP: Sendable {
    /// The process's one pool of upstream connections.
    static let shared = UpstreamHTTP()

    /// The most bytes an upstream answer may have.
    static let maximumBytes = 128 * 1024
    let timeout: Duration
    private let client: HTTPClient

    private init(timeout: Duration = .seconds(5)) {
        self.timeout = timeout
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(timeout), read: TimeAmount(timeout)))
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Why an upstream request gave nothing usable, said so that an operator can fix it.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// An answer of any status.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]

        /// The body as a JSON object, or a failure naming `what` was expected.
        func jsonObject(_ what: String) throws(Failure) -> [String: JSONValue] {
            guard let value = try? JSONValue(parsing: body), case .object(let members) = value else {
                throw Failure(description: "\(what) is not a JSON object")
            }
            return members
        }
    }

    /// Whether Warden may send requests to `url`: `https` with a host, or `http` to a loopback host.
    static func isAllowed(_ url: URL) -> Bool {
        guard let host = url.host, !host.isEmpty else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return RegistrationMetadata.isLoopback(host)
        default: return false
        }
    }

    /// `GET url`, with `bearer` as the `Authorization` when given, and `extra` headers.
    func get(
        _ url: String, bearer: String? = nil, accept: String = "application/json",
        headers extra: [(String, String)] = []
    ) async throws -> Answer {
        var headers = HTTPHeaders([("Accept", accept)])
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        headers.add(contentsOf: extra)
        return try await send(url, method: .GET, headers: headers, body: nil)
    }

    /// `POST url` with an `application/x-www-form-urlencoded` body.
    func postForm(_ url: String, _ form: [(String, String)], headers extra: [(String, String)] = [])
        async throws -> Answer
    {
        let body = form.map { "\(PercentEncoding.unreserved($0.0))=\(PercentEncoding.unreserved($0.1))" }
            .joined(separator: "&")
        var headers = HTTPHeaders([
            ("Accept", "application/json"), ("Content-Type", "application/x-www-form-urlencoded"),
        ])
        headers.add(contentsOf: extra)
        return try await send(url, method: .POST, headers: headers, body: body)
    }

    private func send(_ url: String, method: HTTPMethod, headers: HTTPHeaders, body: String?) async throws
        -> Answer
    {
        guard let parsed = URL(string: url), Self.isAllowed(parsed), let host = parsed.host else {
            throw Failure(description: "\(url) is not an https URL (http only to a loopback address)")
        }
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = headers
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        do {
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            if (300..<400).contains(Int(response.status.code)) {
                throw Failure(description: "\(host) answered a redirect (HTTP \(response.status.code)), not followed")
            }
            let collected = try await response.body.collect(upTo: Self.maximumBytes)
            return Answer(status: Int(response.status.code), body: Array(buffer: collected))
        } catch let failure as Failure {
            throw failure
        } catch is NIOTooManyBytesError {
            throw Failure(description: "\(host) answered more than \(Self.maximumBytes / 1024) KB")
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw Failure(description: "\(host) did not answer within \(timeout)")
        } catch let error as HTTPClientError where error == .connectTimeout {
            throw Failure(description: "no connection to \(host) within \(timeout)")
        } catch {
            throw Failure(description: "\(host) could not be reached (\(String(describing: error).prefix(120)))")
        }
    }
}
