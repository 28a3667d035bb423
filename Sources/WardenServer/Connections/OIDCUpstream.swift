import Foundation
import WardenCore
import WardenWire

/// Why an upstream login ended without an identity (SPEC §15 "Sign-in"): answered to the application as
/// `access_denied` (`temporarily_unavailable` when the upstream said so), the description naming what failed.
struct UpstreamFailure: Error, Sendable {
    var error: String
    var description: String

    static func denied(_ description: String) -> UpstreamFailure {
        UpstreamFailure(error: "access_denied", description: description)
    }
}

/// An upstream identity provider of one connection, whatever its protocol (SPEC §15 "Strategies"): the request
/// that sends the person there, and the identity its callback proves.
protocol Upstream: Sendable {
    /// The PKCE method Warden uses with it (`S256`, `plain`), or `nil` for none.
    var pkceMethod: String? { get }
    /// The upstream's authorization endpoint with Warden's request.
    func authorizationURL(state: String, nonce: String, verifier: String?, request: AuthorizationRequest) -> String
    /// The person the callback's parameters prove; every refusal is an ``UpstreamFailure``. (The upstreams' async
    /// functions throw untyped: Swift 6.3's optimizer crashed splitting them as coroutines with typed throws.)
    func identity(from callback: [String: String], state: UpstreamLoginState) async throws
        -> UpstreamUserProfile
}

extension Upstream {
    /// `endpoint` with `fields` as its query (added to a query it may have).
    static func url(_ endpoint: String, _ fields: [(String, String)]) -> String {
        let query = fields.map { "\(PercentEncoding.unreserved($0.0))=\(PercentEncoding.unreserved($0.1))" }
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query.joined(separator: "&")
    }

    /// The connection's `scope` (space-separated, or an array: GitHub's computed from its flags, Google's), or
    /// `defaults` without one, then the request's `connection_scope` not already there (SPEC §15).
    static func scopes(_ scope: JSONValue?, default defaults: [String], adding request: AuthorizationRequest)
        -> [String]
    {
        var scopes: [String] =
            switch scope {
            case .string(let text): text.split(separator: " ").map(String.init)
            case .array(let items): items.compactMap(\.stringValue)
            default: defaults
            }
        for extra in request.connectionScope ?? [] where !extra.isEmpty && !scopes.contains(extra) {
            scopes.append(extra)
        }
        return scopes
    }

    /// The upstream's `error` answer as the failure the application gets (SPEC §15: `temporarily_unavailable` when
    /// the upstream said so, `access_denied` otherwise), its description cut short.
    static func refusal(_ callback: [String: String]) -> UpstreamFailure? {
        guard let error = callback["error"] else { return nil }
        let code = error == "temporarily_unavailable" ? error : "access_denied"
        let detail = callback["error_description"].map { ": \(String($0.prefix(200)))" } ?? ""
        return UpstreamFailure(error: code, description: "The identity provider answered \(error)\(detail)")
    }

    /// The JSON object of a successful token response to the request `send` makes (RFC 6749 §5.1), or the failure
    /// saying why there is none.
    static func tokenResponse(_ send: () async throws -> UpstreamHTTP.Answer)
        async throws -> [String: JSONValue]
    {
        let answer: UpstreamHTTP.Answer
        do {
            answer = try await send()
        } catch {
            throw UpstreamFailure.denied("The identity provider's token endpoint failed: \(error)")
        }
        let body = try? answer.jsonObject("the token response")
        guard answer.status == 200, let body, body["error"] == nil else {
            let reason = body?["error"]?.stringValue.map { " \(String($0.prefix(60)))" } ?? ""
            throw UpstreamFailure.denied("The identity provider refused the code (HTTP \(answer.status)\(reason))")
        }
        return body
    }
}

/// An OpenID Connect upstream (SPEC §15 `oidc`, and `google-oauth2` underneath): the authentication request,
/// then on the callback the code exchange at the token endpoint, every check of the ID token (OIDC Core
/// §3.1.3.7, through ``UpstreamIDTokenValidator``), RFC 9207's `iss`, the userinfo claims and the attribute map.
struct OIDCUpstream: Upstream {
    let connection: Connection
    let http: UpstreamHTTP
    let keySets: UpstreamKeySets
    /// Warden's signing keys: they sign the `private_key_jwt` assertion to the upstream.
    let keys: KeyManager
    let clock: any WardenClock
    /// `{issuer}login/callback`, the `redirect_uri` of every upstream request.
    let callbackURL: String

    private var options: [String: JSONValue] { connection.options }
    private var metadata: [String: JSONValue] { options["oidc_metadata"]?.objectValue ?? [:] }
    var issuer: String { options["issuer"]?.stringValue ?? "" }
    /// `type: front_channel` (SPEC §15): the ID token comes straight back in a `form_post`, without a code.
    var isFrontChannel: Bool { options["type"]?.stringValue == "front_channel" }

    /// The PKCE method to use (SPEC §15 `connection_settings.pkce`): `auto` is S256 when the upstream lists it.
    /// The front channel has no code, so no PKCE.
    var pkceMethod: String? {
        guard !isFrontChannel else { return nil }
        return switch options["connection_settings"]?["pkce"]?.stringValue ?? "auto" {
        case "S256": "S256"
        case "plain": "plain"
        case "disabled": nil
        default:
            metadata["code_challenge_methods_supported"]?.arrayValue?.contains("S256") == true ? "S256" : nil
        }
    }

    /// The upstream's authorization endpoint with the authentication request (OIDC Core §3.1.2.1): Warden's
    /// `state`, `nonce`, PKCE, the connection's scope plus `connection_scope`, `login_hint`, `prompt=login` and
    /// the `upstream_params`.
    func authorizationURL(state: String, nonce: String, verifier: String?, request: AuthorizationRequest) -> String {
        let scopes = Self.scopes(options["scope"], default: ["openid", "profile", "email"], adding: request)
        var fields: [(String, String)] = [
            ("response_type", isFrontChannel ? "id_token" : "code"),
            ("client_id", options["client_id"]?.stringValue ?? ""),
            ("redirect_uri", callbackURL), ("scope", scopes.joined(separator: " ")), ("state", state),
            ("nonce", nonce),
        ]
        if isFrontChannel { fields.append(("response_mode", "form_post")) }
        if let verifier, let method = pkceMethod {
            fields.append(("code_challenge", method == "S256" ? SecretHash.sha256Base64URL(verifier) : verifier))
            fields.append(("code_challenge_method", method))
        }
        if let hint = request.loginHint { fields.append(("login_hint", hint)) }
        if request.prompt.contains(.login) { fields.append(("prompt", "login")) }
        for (name, param) in options["upstream_params"]?.objectValue ?? [:] {
            if let value = param["value"]?.stringValue {
                fields.append((name, value))
            } else if param["alias"]?.stringValue == "login_hint", let hint = request.loginHint {
                fields.append((name, hint))
            }
        }
        return Self.url(options["authorization_endpoint"]?.stringValue ?? "", fields)
    }

    /// The identity of a successful callback; every refusal is an ``UpstreamFailure``.
    func identity(from callback: [String: String], state: UpstreamLoginState) async throws
        -> UpstreamUserProfile
    {
        let verdict = AuthorizationResponseIssuer(
            parameter: callback["iss"], issuer: issuer,
            parameterSupported: metadata["authorization_response_iss_parameter_supported"] == .bool(true))
        guard verdict.isAccepted else {
            throw UpstreamFailure.denied("The identity provider's answer failed the iss check (RFC 9207): \(verdict)")
        }
        if let refusal = Self.refusal(callback) { throw refusal }
        let tokens: [String: JSONValue]
        if isFrontChannel {
            // OIDC Core §3.2.2.5 with `response_mode=form_post`: the ID token is the answer; no access token.
            guard let idToken = callback["id_token"], !idToken.isEmpty else {
                throw UpstreamFailure.denied("The identity provider's answer has no id_token")
            }
            tokens = ["id_token": .string(idToken)]
        } else {
            guard let code = callback["code"], !code.isEmpty else {
                throw UpstreamFailure.denied("The identity provider's answer has no code")
            }
            tokens = try await exchange(code, verifier: state.codeVerifier)
        }
        guard let idToken = tokens["id_token"]?.stringValue else {
            throw UpstreamFailure.denied("The identity provider's token response has no id_token")
        }
        let claims = try await verified(idToken, nonce: state.nonce)
        guard let subject = claims["sub"]?.stringValue else { throw UpstreamFailure.denied("The ID token has no sub") }
        let userinfo = try await userinfo(tokens["access_token"]?.stringValue, subject: subject)
        let map: AttributeMap
        do {
            map = try AttributeMap(option: options["attribute_map"])
        } catch {
            throw UpstreamFailure.denied("The connection's attribute_map cannot be used: \(error)")
        }
        return UpstreamUserProfile(
            userID: .string(subject), profile: map.profile(idTokenClaims: claims, userinfo: userinfo),
            tokens: UpstreamTokenSet(tokenResponse: tokens))
    }

    /// The token response for `code` (OIDC Core §3.1.3.1), the client authenticated with its secret or, with
    /// `token_endpoint_auth_method: private_key_jwt`, an assertion Warden signs (OIDC Core §9).
    private func exchange(_ code: String, verifier: String?) async throws -> [String: JSONValue] {
        let clientID = options["client_id"]?.stringValue ?? ""
        let url = options["token_endpoint"]?.stringValue ?? ""
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callbackURL),
            ("client_id", clientID),
        ]
        if options["token_endpoint_auth_method"]?.stringValue == "private_key_jwt" {
            form.append(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
            form.append(("client_assertion", try await assertion(clientID: clientID, tokenEndpoint: url)))
        } else if let secret = options["client_secret"]?.stringValue {
            form.append(("client_secret", secret))
        }
        if let verifier, pkceMethod != nil { form.append(("code_verifier", verifier)) }
        return try await Self.tokenResponse { () async throws in
            try await http.postForm(url, form)
        }
    }

    /// The `private_key_jwt` client assertion (RFC 7523 §3, OIDC Core §9), signed with Warden's current RS256
    /// key, whose public half the upstream reads at `{issuer}.well-known/jwks.json`: `iss` and `sub` the client
    /// id, `aud` the upstream's issuer or, with `token_endpoint_jwtca_aud_format: token_endpoint`, its token
    /// endpoint; one minute of life, a fresh `jti`.
    private func assertion(clientID: String, tokenEndpoint: String) async throws -> String {
        let audience =
            options["token_endpoint_jwtca_aud_format"]?.stringValue == "token_endpoint" ? tokenEndpoint : issuer
        let now = Int(clock.now().timeIntervalSince1970)
        let payload = JSONValue.serializedObject([
            ("iss", .string(clientID)), ("sub", .string(clientID)), ("aud", .string(audience)),
            ("jti", .string(RandomToken.make())), ("iat", .number(Double(now))), ("exp", .number(Double(now + 60))),
        ])
        do {
            return try await keys.currentKey(for: .rs256).sign(payload: payload)
        } catch {
            throw UpstreamFailure.denied("Warden could not sign its client assertion: \(error)")
        }
    }

    /// The ID token's claims once every check passed; an unknown `kid` fetches the JWKS again once.
    private func verified(_ token: String, nonce: String) async throws -> [String: JSONValue] {
        let names = options["id_token_signed_response_algs"]?.arrayValue?.compactMap(\.stringValue)
        let validator = UpstreamIDTokenValidator(
            issuer: issuer, clientID: options["client_id"]?.stringValue ?? "",
            algorithms: names.map(UpstreamIDTokenValidator.algorithms(named:))
                ?? UpstreamIDTokenValidator.defaultAlgorithms,
            now: clock.now())
        let url = options["jwks_uri"]?.stringValue ?? ""
        do {
            do {
                return try validator.validate(token, jwks: try await keySets.keys(at: url), nonce: nonce)
            } catch let error as UpstreamIDTokenError where error.code == UpstreamIDTokenError.Code.kid {
                return try validator.validate(token, jwks: try await keySets.keys(at: url, refresh: true), nonce: nonce)
            }
        } catch let error as UpstreamIDTokenError {
            throw UpstreamFailure.denied("The ID token failed the \(error.code) check: \(error.message)")
        } catch {
            throw UpstreamFailure.denied("The identity provider's keys could not be read: \(error)")
        }
    }

    /// The userinfo claims (OIDC Core §5.3), when the upstream has the endpoint; their `sub` must be the ID
    /// token's (§5.3.2).
    private func userinfo(_ accessToken: String?, subject: String) async throws
        -> [String: JSONValue]?
    {
        guard let accessToken, let url = options["userinfo_endpoint"]?.stringValue else { return nil }
        let claims: [String: JSONValue]
        do {
            let answer = try await http.get(url, bearer: accessToken)
            guard answer.status == 200 else {
                throw UpstreamHTTP.Failure(description: "it answered HTTP \(answer.status)")
            }
            claims = try answer.jsonObject("the userinfo response")
        } catch {
            throw UpstreamFailure.denied("The identity provider's userinfo endpoint failed: \(error)")
        }
        guard claims["sub"]?.stringValue == subject else {
            throw UpstreamFailure.denied("The userinfo sub is not the ID token's")
        }
        return claims
    }
}
