import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WardenCore

/// One `GET` of a URL that a stranger chose (SPEC §13: Client ID Metadata Documents): no redirects, a deadline, a
/// size limit, and the address the host resolves to checked before it is connected to — loopback, private,
/// link-local, unique-local, carrier-grade NAT, multicast and unspecified addresses are refused unless the host is
/// allow-listed — and then connected to by that address (the certificate still checked against the host name), so
/// a second DNS answer cannot swap it for another (DNS rebinding).
struct GuardedFetch: Sendable {
    /// Hosts (`host`, or `host:port`) that may resolve to any address and be fetched over `http` (tests, a
    /// development machine): `--client-metadata-allow-hosts`.
    let allowHosts: Set<String>
    /// The trust roots of the fetch: the system's, plus `--client-metadata-ca-file` when set (``OutboundTLS``).
    let tls: TLSConfiguration
    let timeout: Duration
    let maximumBytes: Int

    /// Networks a fetched host must not resolve to (RFC 6890 special-purpose ranges a server can reach privately).
    static let refusedNetworks: [CIDR] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
        "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4", "::/128", "::1/128",
        "fc00::/7", "fe80::/10", "ff00::/8", "64:ff9b::/96",
    ].compactMap(CIDR.init)

    init(
        allowHosts: Set<String>, tls: TLSConfiguration = .makeClientConfiguration(), timeout: Duration = .seconds(5),
        maximumBytes: Int = 5 * 1024
    ) {
        self.allowHosts = Set(allowHosts.map { $0.lowercased() })
        self.tls = tls
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// What a fetch refused or could not do, said so that a person can fix it.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// A successful answer: the status was 200.
    struct Answer: Sendable {
        var body: [UInt8]
        var contentType: String?
        var cacheControl: String?
    }

    /// Whether `url` may be fetched at all: `https` with a host, or `http` for an allow-listed host.
    func isAllowed(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased(), !host.isEmpty else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return isAllowListed(host: host, port: url.port)
        default: return false
        }
    }

    func get(_ url: URL) async throws(Failure) -> Answer {
        guard isAllowed(url), let host = url.host?.lowercased() else {
            throw Failure(description: "only https URLs can be fetched")
        }
        let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
        let address = try await resolve(host, port: port)
        if !isAllowListed(host: host, port: url.port),
            let ip = address.ipAddress, Self.refusedNetworks.contains(where: { $0.contains(ip) })
        {
            throw Failure(description: "\(host) resolves to \(ip), a private or local address")
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(3), read: .seconds(3)))
        if let ip = address.ipAddress, IPAddress(host) == nil { configuration.dnsOverride = [host: ip] }
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let result: Result<Answer, Failure>
        do {
            result = .success(try await fetch(url, with: client))
        } catch let failure as Failure {
            result = .failure(failure)
        } catch is NIOTooManyBytesError {
            result = .failure(Failure(description: "the document is larger than \(maximumBytes) bytes"))
        } catch {
            result = .failure(Failure(description: "the document could not be fetched (\(Self.reason(error)))"))
        }
        try? await client.shutdown()
        return try result.get()
    }

    private func fetch(_ url: URL, with client: HTTPClient) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await client.execute(request, timeout: TimeAmount(timeout))
        guard response.status == .ok else {
            throw Failure(description: "the document answered HTTP \(response.status.code), not 200")
        }
        let body = try await response.body.collect(upTo: maximumBytes)
        return Answer(
            body: Array(buffer: body), contentType: response.headers.first(name: "Content-Type"),
            cacheControl: response.headers.first(name: "Cache-Control"))
    }

    private func isAllowListed(host: String, port: Int?) -> Bool {
        allowHosts.contains(host) || (port.map { allowHosts.contains("\(host):\($0)") } ?? false)
    }

    /// The first address `host` resolves to, looked up off the event loops.
    private func resolve(_ host: String, port: Int) async throws(Failure) -> SocketAddress {
        do {
            return try await NIOThreadPool.singleton.runIfActive {
                try SocketAddress.makeAddressResolvingHost(host, port: port)
            }
        } catch {
            throw Failure(description: "\(host) does not resolve")
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            "no answer within the time limit"
        case let error as HTTPClientError where error == .connectTimeout: "no connection within the time limit"
        default: String(describing: error).prefix(120).description
        }
    }
}
