import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import WardenCore
import WardenWire

/// The push providers the configuration enables (SPEC §1 `--push-webhook-*`, `--apns-*`, `--fcm-*`; §6.3).
enum PushProviders {
    /// The providers keyed by the enrolled service they serve (SPEC §7.1 `push_credentials.service`):
    /// `WEBHOOK`, `APNS`, and `FCM` and `GCM` (one FCM provider: GCM tokens are FCM tokens since 2019).
    ///
    /// Everything that can fail (key files, the service account, CA files) is read before any connection pool
    /// is made, so a misconfiguration throws at start-up and leaves nothing to shut down. Providers that own
    /// connections are closed by ``shutdown(_:)``.
    static func make(configuration: WardenConfiguration, logger: Logger) throws -> [PushService: any PushProvider] {
        let apns = try configuration.apns.map(APNsProvider.Setup.init(settings:))
        let fcm = try configuration.fcm.map(FCMProvider.Setup.init(settings:))
        var providers: [PushService: any PushProvider] = [:]
        if let url = configuration.pushWebhookURL {
            guard let secret = configuration.pushWebhookSecret, !secret.isEmpty else {
                throw PushConfigurationError(description: "--push-webhook-url needs --push-webhook-secret")
            }
            providers[.webhook] = WebhookProvider(url: url, secret: secret, httpClient: .shared)
        }
        if let apns {
            providers[.apns] = APNsProvider(apns, logger: logger)
        }
        if let fcm {
            let provider = FCMProvider(fcm, logger: logger)
            providers[.fcm] = provider
            providers[.gcm] = provider
        }
        return providers
    }

    /// Closes the connection pools of `providers`, each provider once (FCM serves two names). Call it when the
    /// delivery service has stopped; every provider is shut down even when one fails, then the first error is
    /// thrown.
    static func shutdown(_ providers: [PushService: any PushProvider]) async throws {
        var closed: Set<ObjectIdentifier> = []
        var firstError: (any Error)?
        for case let provider as any PushProviderWithConnections in providers.values
        where closed.insert(ObjectIdentifier(provider)).inserted {
            do {
                try await provider.shutdown()
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }
}

/// A provider with a connection pool of its own (an ``HTTPClient``), closed by ``PushProviders/shutdown(_:)``.
protocol PushProviderWithConnections: PushProvider, AnyObject {
    func shutdown() async throws
}

/// A push setting that cannot work: thrown at start-up with a message naming the flag or file.
struct PushConfigurationError: Error, CustomStringConvertible {
    var description: String
}

/// A push service answered with something a later attempt may change (408, 429, 5xx, an expired
/// credential): the delivery is retried with backoff.
struct PushServiceError: Error, CustomStringConvertible {
    var service: String
    var status: Int
    var reason: String
    var description: String { "\(service) answered HTTP \(status)" + (reason.isEmpty ? "" : " \(reason)") }
}

/// The HTTP plumbing the push providers share.
enum PushHTTP {
    /// Connect and read timeout of every push request.
    static let timeout = TimeAmount.seconds(10)
    /// The most of a push service's answer that is read (error bodies are small JSON objects).
    static let maximumResponseBody = 64 * 1024
    /// The unreserved characters of RFC 3986 §2.3: what a path segment or form value keeps unencoded.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// An answer of a push service, its body read.
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer

        /// The body as JSON, when it is JSON.
        var json: JSONValue? { try? JSONValue(parsing: body.readableBytesView) }
    }

    /// A connection pool of its own for one push service: HTTP/2 when the server offers it over ALPN (AHC's
    /// default; APNs requires it), no redirects, ``timeout``.
    static func makeClient(tls: TLSConfiguration) -> HTTPClient {
        let configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// POSTs `body` to `url` and reads the answer.
    static func post(_ url: String, headers: HTTPHeaders, body: String, on client: HTTPClient) async throws
        -> Response
    {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers = headers
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: timeout)
        let responseBody = try await response.body.collect(upTo: maximumResponseBody)
        return Response(status: Int(response.status.code), headers: response.headers, body: responseBody)
    }

    /// `value` percent-encoded but for ``unreserved``: a path segment, or a form value (RFC 3986 §2.1).
    static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// The common reading of a status once a provider has handled its own cases: 2xx delivered; 408, 429 and
    /// 5xx (and anything unexpected) retried; any other 4xx a permanent refusal.
    static func check(_ status: Int, service: String, reason: String) throws {
        switch status {
        case 200..<300:
            return
        case 408, 429:
            throw PushServiceError(service: service, status: status, reason: reason)
        case 400..<500:
            throw DeliveryFailure.permanent(
                "\(service) refused the request: HTTP \(status)" + (reason.isEmpty ? "" : " \(reason)"))
        default:
            throw PushServiceError(service: service, status: status, reason: reason)
        }
    }
}

extension JWSKey {
    /// A push service's private key in PEM (the APNs `.p8`, a service account's `private_key`): not one of
    /// Warden's signing keys, only the same signing code.
    init(pushServicePEM pem: String, kid: String, alg: SigningAlgorithm) throws {
        try self.init(
            record: SigningKeyRecord(
                kid: kid, alg: alg, privateKey: pem, current: false, createdAt: Date(), currentSince: nil,
                revokedAt: nil))
    }
}
