import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// Authenticates the client at the token endpoint (RFC 6749 §2.3): `client_secret_basic`,
/// `client_secret_post`, `private_key_jwt` (RFC 7523 §3, single-use `jti`) or `none` for public clients.
///
/// The registered method is enforced (SPEC §4, RFC 7591 §2 `token_endpoint_auth_method`): a secret sent by a
/// method the client did not register — in the body for `client_secret_basic`, by HTTP Basic for
/// `client_secret_post`, either way for `private_key_jwt` or `none` — is `invalid_client`.
struct ClientAuthenticator: Sendable {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// The longest an assertion may live ahead of now (SPEC §4: `exp` ≤ 5 minutes ahead).
    static let maxAssertionLifetime: Double = 300
    /// Where the clients and their credentials are read.
    let tenant: TenantCache
    /// Where the `jti`s of client assertions are remembered (single use, SPEC §4).
    let assertionIDs: any ArtefactStore
    let clock: any WardenClock
    /// The issuer URL, with its trailing slash: the audiences an assertion may name derive from it.
    let issuer: URL
    private let publicKeys = PublicKeyCache()

    /// An authenticator of the clients of `tenant`, remembering assertion `jti`s in `assertionIDs`, for the
    /// endpoints below `issuer`.
    init(tenant: TenantCache, assertionIDs: any ArtefactStore, clock: any WardenClock, issuer: URL) {
        self.tenant = tenant
        self.assertionIDs = assertionIDs
        self.clock = clock
        self.issuer = issuer
    }

    /// The client, refusing with `invalid_client` a confidential client that proved nothing, and any client
    /// that proved nothing when `credentialsRequired` (grants such as `client_credentials`). `endpoint` is the
    /// path (below the issuer) of the endpoint being called: an assertion's `aud` may name it (SPEC §4).
    func authenticate(
        headers: HTTPFields, parameters: RequestParameters, credentialsRequired: Bool,
        endpoint: String = "oauth/token"
    ) async throws -> ClientRecord {
        let (record, authenticated): (ClientRecord, Bool)
        do {
            (record, authenticated) = try await authenticate(
                headers: headers, parameters: parameters, endpoint: endpoint)
        } catch {
            RequestFacts.client(parameters["client_id"])
            throw error
        }
        RequestFacts.client(record.client.clientID)
        if !authenticated, credentialsRequired || !record.client.isPublic {
            throw OAuthError(.invalidClient, "Client authentication is required")
        }
        return record
    }

    /// The client, and whether it proved possession of a credential (`false` for `none`).
    private func authenticate(
        headers: HTTPFields, parameters: RequestParameters, endpoint: String
    ) async throws -> (ClientRecord, authenticated: Bool) {
        let basic = try basicCredentials(headers[.authorization])
        let assertion = parameters["client_assertion"]
        let postedSecret = parameters["client_secret"]
        let methods = [basic != nil, assertion != nil, postedSecret != nil].filter { $0 }.count
        guard methods <= 1 else {
            throw OAuthError.invalidRequest("Use only one client authentication method")
        }
        if let (clientID, secret) = basic {
            if let bodyID = parameters["client_id"], bodyID != clientID {
                throw OAuthError.invalidRequest("client_id does not match the Authorization header")
            }
            return (try await verifySecret(clientID: clientID, secret: secret, basic: true), true)
        }
        if let assertion {
            guard parameters["client_assertion_type"] == Self.assertionType else {
                throw OAuthError.invalidRequest("client_assertion_type must be \(Self.assertionType)")
            }
            return (
                try await verifyAssertion(assertion, claimedClientID: parameters["client_id"], endpoint: endpoint), true
            )
        }
        guard let clientID = parameters["client_id"] else {
            throw OAuthError(.invalidClient, "Client authentication is required")
        }
        if let postedSecret {
            return (try await verifySecret(clientID: clientID, secret: postedSecret, basic: false), true)
        }
        guard let record = try await client(id: clientID, basic: false) else {
            throw invalidClient("Unknown client", basic: false)
        }
        return (record, false)
    }

    private func basicCredentials(_ header: String?) throws -> (String, String)? {
        guard let encoded = HeaderValue.credentials(header, scheme: "basic") else { return nil }
        guard let data = Data(base64Encoded: String(encoded)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            let id = formDecode(text[..<colon]), let secret = formDecode(text[text.index(after: colon)...])
        else { throw invalidClient("Malformed HTTP Basic credentials", basic: true) }
        return (id, secret)
    }

    /// RFC 6749 §2.3.1: the id and secret are form-encoded before Basic encoding.
    private func formDecode(_ text: Substring) -> String? {
        PercentDecoding.decode(text, plusIsSpace: true)
    }

    /// Checks `secret` against the client's hash, sent the way its `token_endpoint_auth_method` says (SPEC §4).
    /// The right secret sent the other way is refused naming the registered method, so that a developer looks at
    /// the method rather than for a typo in the secret; a wrong secret by either method is "Wrong client id or
    /// secret" (one comparison either way, so the answer's timing tells no more than its text).
    private func verifySecret(clientID: String, secret: String, basic: Bool) async throws -> ClientRecord {
        let method: TokenEndpointAuthMethod = basic ? .clientSecretBasic : .clientSecretPost
        guard let record = try await client(id: clientID, basic: basic), let hash = record.secretHash,
            let registered = record.client.tokenEndpointAuthMethod,
            registered == .clientSecretBasic || registered == .clientSecretPost
        else {
            // Spend the same work as a real comparison so timing does not reveal which clients exist.
            _ = SecretHash.verify(secret, againstHex: String(repeating: "0", count: 64))
            throw invalidClient("Wrong client id or secret", basic: basic)
        }
        guard SecretHash.verify(secret, againstHex: hash) else {
            throw invalidClient("Wrong client id or secret", basic: basic)
        }
        guard registered == method else {
            throw invalidClient(
                "The client is registered for \(registered.rawValue): send the secret "
                    + (registered == .clientSecretBasic ? "with HTTP Basic" : "as client_secret in the body"),
                basic: basic)
        }
        return record
    }

    private func verifyAssertion(
        _ assertion: String, claimedClientID: String?, endpoint: String
    ) async throws -> ClientRecord {
        guard let jws = try? CompactJWS(parsing: assertion), let clientID = jws.payload["iss"]?.stringValue,
            jws.payload["sub"]?.stringValue == clientID
        else { throw invalidClient("Malformed client assertion", basic: false) }
        if let claimedClientID, claimedClientID != clientID {
            throw invalidClient("client_id does not match the assertion", basic: false)
        }
        guard let record = try await client(id: clientID, basic: false),
            let credentials = record.client.clientAuthenticationMethods?.privateKeyJWT?.credentials,
            !credentials.isEmpty
        else { throw invalidClient("Client has no registered keys", basic: false) }
        let signed = credentials.contains { credential in
            guard let pem = credential.pem, let verifier = publicKeys.verifier(pem: pem) else { return false }
            return jws.isSigned(by: verifier)
        }
        guard signed else { throw invalidClient("Client assertion signature is invalid", basic: false) }
        guard jws.audiences.contains(where: acceptedAudiences(endpoint: endpoint).contains) else {
            throw invalidClient("Client assertion audience is invalid", basic: false)
        }
        let now = clock.now().timeIntervalSince1970
        guard let exp = jws.numericDate("exp"), exp > now, exp <= now + Self.maxAssertionLifetime + 5 else {
            throw invalidClient("Client assertion is expired or lives longer than 5 minutes", basic: false)
        }
        guard let jti = jws.payload["jti"]?.stringValue, !jti.isEmpty else {
            throw invalidClient("Client assertion has no jti", basic: false)
        }
        let fresh = try await assertionIDs.rememberOnce(
            kind: "jti:" + clientID, hash: SecretHash.sha256Hex(jti), expiresAt: Date(timeIntervalSince1970: exp))
        guard fresh else { throw invalidClient("Client assertion jti was already used", basic: false) }
        return record
    }

    /// The issuer, the token endpoint URL, the URL of the endpoint called (SPEC §4: `/oauth/revoke` and
    /// `/oauth/introspect` assertions, as iddawc signs them), and `https://{host[:port]}/` (what the vendor's
    /// SDKs send).
    private func acceptedAudiences(endpoint: String) -> Set<String> {
        let base = issuer.absoluteString
        var accepted: Set<String> = [base, base + "oauth/token", base + endpoint]
        if let host = issuer.host {
            let port = issuer.port.map { ":\($0)" } ?? ""
            accepted.insert("https://\(host)\(port)/")
        }
        return accepted
    }

    /// The client, or `nil`; a metadata document that cannot be used (SPEC §13) is `invalid_client` saying why.
    private func client(id clientID: String, basic: Bool) async throws -> ClientRecord? {
        do {
            return try await tenant.client(id: clientID)
        } catch let failure as ClientMetadataDocuments.Failure {
            throw invalidClient("The client's metadata document could not be used: \(failure)", basic: basic)
        }
    }

    private func invalidClient(_ description: String, basic: Bool) -> OAuthError {
        OAuthError(
            .invalidClient, description,
            headers: basic ? [("WWW-Authenticate", "Basic realm=\"warden\", charset=\"UTF-8\"")] : [])
    }
}
