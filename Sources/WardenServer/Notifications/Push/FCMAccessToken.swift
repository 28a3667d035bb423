import AsyncHTTPClient
import Foundation
import Logging
import NIOFoundationCompat
import NIOHTTP1
import WardenCore
import WardenWire

/// A Google service account, as downloaded from the Firebase console (the fields FCM HTTP v1 needs).
struct FCMServiceAccount: Decodable, Sendable {
    var projectID: String
    var clientEmail: String
    /// PKCS#8 RSA private key in PEM.
    var privateKey: String
    /// The key id, sent as the assertion's `kid`.
    var privateKeyID: String
    /// Where access tokens are obtained (RFC 7523 §3 `aud`).
    var tokenURI: String

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id"
        case clientEmail = "client_email"
        case privateKey = "private_key"
        case privateKeyID = "private_key_id"
        case tokenURI = "token_uri"
    }

    /// Reads the service-account JSON at `path` (SPEC §1 `--fcm-service-account`).
    init(contentsOfFile path: String) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw PushConfigurationError(
                description: "--fcm-service-account \(path): not a readable service-account JSON (\(error))")
        }
    }
}

/// The OAuth 2.0 access token that authorizes FCM HTTP v1 sends, obtained with the JWT bearer grant
/// (RFC 7523 §2.1; Google, "Using OAuth 2.0 for Server to Server Applications"): an RS256 assertion
/// `{iss: client_email, scope: firebase.messaging, aud: token_uri, iat, exp: iat + 3600}` (§3) POSTed
/// form-encoded to the service account's `token_uri`.
///
/// The token is cached until five minutes before it expires; concurrent sends wait for one request.
actor FCMAccessToken {
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// Lifetime of an assertion (Google accepts at most one hour).
    static let assertionLifetime: TimeInterval = 3600
    /// How long before its expiry a token is replaced.
    static let refreshMargin: TimeInterval = 5 * 60

    /// An access token and when to stop using it.
    struct Grant: Sendable {
        var token: String
        var refreshAt: Date
    }

    /// The token endpoint's success response (RFC 6749 §5.1).
    private struct TokenResponse: Decodable {
        var accessToken: String
        var expiresIn: Double
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }

    private let account: FCMServiceAccount
    private let key: JWSKey
    private let httpClient: HTTPClient
    private let logger: Logger
    private var cached: Grant?
    private var pending: Task<Grant, any Error>?

    /// `key` is the service account's `private_key`, read by ``FCMProvider/Setup``.
    init(account: FCMServiceAccount, key: JWSKey, httpClient: HTTPClient, logger: Logger) {
        self.account = account
        self.key = key
        self.httpClient = httpClient
        self.logger = logger
    }

    /// A token valid for at least five more minutes.
    func current() async throws -> String {
        if let cached, Date() < cached.refreshAt { return cached.token }
        if let pending { return try await pending.value.token }
        let request = Task { try await self.requestToken(now: Date()) }
        pending = request
        defer { pending = nil }
        let grant = try await request.value
        cached = grant
        return grant.token
    }

    /// Forgets `token` after FCM answered 401, unless a newer token has replaced it meanwhile.
    func discard(_ token: String) {
        if cached?.token == token { cached = nil }
    }

    /// One request to the token endpoint. 429 and 5xx are retried; any other refusal (a revoked key, a wrong
    /// `token_uri`) is permanent.
    private nonisolated func requestToken(now: Date) async throws -> Grant {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims = JSONValue.serializedObject([
            ("iss", .string(account.clientEmail)), ("scope", .string(Self.scope)), ("aud", .string(account.tokenURI)),
            ("iat", .number(issuedAt)), ("exp", .number(issuedAt + Self.assertionLifetime)),
        ])
        let assertion = try key.sign(payload: claims)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let body =
            "grant_type=" + PushHTTP.percentEncoded(Self.grantType) + "&assertion=" + PushHTTP.percentEncoded(assertion)
        let response = try await PushHTTP.post(account.tokenURI, headers: headers, body: body, on: httpClient)
        let answer = response.json
        try PushHTTP.check(
            response.status, service: "FCM token endpoint",
            reason: [answer?["error"]?.stringValue, answer?["error_description"]?.stringValue].compactMap { $0 }
                .joined(separator: ": "))
        let token = try JSONDecoder().decode(TokenResponse.self, from: Data(buffer: response.body))
        logger.debug("FCM access token obtained", metadata: ["expires_in": "\(token.expiresIn)"])
        return Grant(token: token.accessToken, refreshAt: now.addingTimeInterval(token.expiresIn - Self.refreshMargin))
    }
}
