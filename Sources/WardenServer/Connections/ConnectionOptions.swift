import Foundation
import WardenCore
import WardenWire

/// The `options` of a connection, checked per strategy (SPEC §15 "Strategies"): each known option's type and
/// values, a 400 `invalid_body` naming the first bad one (`options.client_id`). Options Warden does not know are
/// kept as they are, as the reference platform keeps them. OIDC options are completed from the upstream's
/// discovery document, fetched on every create and PATCH.
struct ConnectionOptions {
    let discovery: OIDCDiscovery
    /// Whether `WARDEN_DATA_KEY` is set: without it no upstream token may be kept.
    let canKeepTokens: Bool

    /// Strategies a connection may be created with (the one `auth0` connection exists from the start).
    static let creatable: [ConnectionStrategy] = [.oidc, .oauth2, .github, .googleOAuth2]

    /// The checked and completed options for a connection of `strategy`.
    func validate(_ options: [String: JSONValue], strategy: ConnectionStrategy) async throws -> [String: JSONValue] {
        let body = ManagementBody(options, path: "options.")
        var result = options
        switch strategy {
        case .auth0: try Self.database(body)
        case .oidc: result = try await oidc(body)
        case .googleOAuth2: result = try Self.google(body)
        case .oauth2: try Self.oauth2(body)
        case .github: result = try Self.github(body)
        default: throw ManagementBody(["strategy": .string(strategy.rawValue)]).invalid("strategy", "Unsupported")
        }
        if let keep = try body.object("federated_connections_access_tokens", allowed: ["active"]),
            try keep.bool("active") == true, !canKeepTokens
        {
            throw keep.invalid("active", "Keeping upstream tokens needs WARDEN_DATA_KEY on the server")
        }
        return result
    }

    /// `Username-Password-Authentication` (SPEC §15.1, §17): `disable_signup`, the password policy's options and
    /// the passkey policy's.
    private static func database(_ body: ManagementBody) throws {
        _ = try body.bool("disable_signup")
        _ = try body.bool("brute_force_protection")
        if let methods = try body.object("authentication_methods", allowed: ["password", "passkey"]) {
            _ = try methods.object("password", allowed: ["enabled"])?.bool("enabled")
            _ = try methods.object("passkey", allowed: ["enabled"])?.bool("enabled")
        }
        if let passkey = try body.object(
            "passkey_options",
            allowed: ["challenge_ui", "progressive_enrollment_enabled", "local_enrollment_enabled"])
        {
            _ = try passkey.string("challenge_ui", oneOf: PasskeyPolicy.ChallengeUI.allCases.map(\.rawValue))
            _ = try passkey.bool("progressive_enrollment_enabled")
            _ = try passkey.bool("local_enrollment_enabled")
        }
        do {
            _ = try PasswordPolicy(options: body.members)
        } catch {
            throw ManagementError.invalidBody(
                "Payload validation error: '\(error.message)' on property options.\(error.option).")
        }
    }

    /// `oidc` (SPEC §15): the settings, then the discovery document filling what is absent.
    private func oidc(_ body: ManagementBody) async throws -> [String: JSONValue] {
        _ = try body.requiredString("client_id")
        // The back channel authenticates at the token endpoint with the secret or Warden's own key; the front
        // channel (an ID token in a `form_post`) needs neither.
        let type = try body.string("type", oneOf: ["back_channel", "front_channel"]) ?? "back_channel"
        let method =
            try body.string("token_endpoint_auth_method", oneOf: ["client_secret_post", "private_key_jwt"])
            ?? "client_secret_post"
        if type == "back_channel" && method == "client_secret_post" {
            _ = try body.requiredString("client_secret")
        } else {
            _ = try body.string("client_secret")
        }
        _ = try body.string("token_endpoint_jwtca_aud_format", oneOf: ["issuer", "token_endpoint"])
        try Self.scope(body, requiringOpenID: true)
        if let settings = try body.object("connection_settings", allowed: ["pkce"]) {
            _ = try settings.string("pkce", oneOf: ["auto", "S256", "plain", "disabled"])
        }
        try Self.checked { () throws(ConnectionOptionError) in
            _ = try AttributeMap(option: body.members["attribute_map"])
            _ = try UserRootAttributesUpdate(option: body.members["set_user_root_attributes"])
        }
        _ = try body.strings("domain_aliases")
        try Self.upstreamParams(body)
        _ = try body.strings("id_token_signed_response_algs", oneOf: Self.idTokenAlgorithms)
        _ = try body.url("icon_url", schemes: ["https"])
        for endpoint in Self.endpoints { _ = try body.url(endpoint) }
        return try await discovery.complete(body)
    }

    /// The ID token algorithms a connection may allow: asymmetric only, never `none` or HMAC (SPEC §15).
    static let idTokenAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"]

    /// The endpoint options discovery fills when absent.
    static let endpoints = ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"]

    /// `google-oauth2`: an OIDC connection to Google underneath (its endpoints from Google's published discovery
    /// document, recorded here: Warden cannot ask Google from every test machine), with the reference platform's
    /// scope flags.
    private static func google(_ body: ManagementBody) throws -> [String: JSONValue] {
        _ = try body.requiredString("client_id")
        _ = try body.requiredString("client_secret")
        _ = try body.strings("allowed_audiences")
        var options = body.members
        options["scope"] = .array(
            ["openid"] + (try flags(body, ["email": "email", "profile": "profile"])).map(JSONValue.string))
        for (name, value) in googleMetadata where Self.endpoints.contains(name) || name == "issuer" {
            options[name] = value
        }
        options["oidc_metadata"] = .object(googleMetadata)
        return options
    }

    /// The members of `https://accounts.google.com/.well-known/openid-configuration` Warden uses.
    static let googleMetadata: [String: JSONValue] = [
        "issuer": "https://accounts.google.com",
        "authorization_endpoint": "https://accounts.google.com/o/oauth2/v2/auth",
        "token_endpoint": "https://oauth2.googleapis.com/token",
        "userinfo_endpoint": "https://openidconnect.googleapis.com/v1/userinfo",
        "jwks_uri": "https://www.googleapis.com/oauth2/v3/certs",
        "code_challenge_methods_supported": ["plain", "S256"],
        "id_token_signing_alg_values_supported": ["RS256"],
    ]

    /// `oauth2`: endpoints, credentials, and Warden's declarative profile instead of a script.
    private static func oauth2(_ body: ManagementBody) throws {
        _ = try body.requiredString("client_id")
        _ = try body.string("client_secret")
        for endpoint in ["authorizationURL", "tokenURL"] where try body.url(endpoint) == nil {
            throw body.invalid(endpoint, "Missing required property")
        }
        if let scripts = try body.jsonObject("scripts"), scripts["fetchUserProfile"] != nil,
            try body.url("userinfo_url") == nil
        {
            throw ManagementBody(scripts, path: "options.scripts.").invalid(
                "fetchUserProfile", "Warden runs no scripts: set userinfo_url (with user_id_field and fieldsMap)")
        }
        guard try body.url("userinfo_url") != nil else {
            throw body.invalid("userinfo_url", "Missing required property")
        }
        try Self.checked { () throws(ConnectionOptionError) in _ = try OAuth2ProfileMapping(options: body.members) }
        if case .array = body.members["scope"] { _ = try body.strings("scope") } else { _ = try body.string("scope") }
        _ = try body.bool("pkce_enabled")
        for (key, value) in try body.jsonObject("customHeaders") ?? [:] where value.stringValue == nil {
            throw body.invalid("customHeaders.\(key)", "Expected type string")
        }
        _ = try body.jsonObject("authParams")
    }

    /// The reference platform's GitHub scope flags and the GitHub scope each asks for.
    static let githubScopes: [String: String] = [
        "email": "user:email", "read_user": "read:user", "follow": "user:follow", "public_repo": "public_repo",
        "repo": "repo", "repo_deployment": "repo_deployment", "repo_status": "repo:status",
        "delete_repo": "delete_repo", "notifications": "notifications", "gist": "gist",
        "read_repo_hook": "read:repo_hook", "write_repo_hook": "write:repo_hook", "admin_repo_hook": "admin:repo_hook",
        "read_org": "read:org", "write_org": "write:org", "admin_org": "admin:org",
        "read_public_key": "read:public_key", "write_public_key": "write:public_key",
        "admin_public_key": "admin:public_key",
    ]

    /// `github`: credentials, scope flags (answered with the computed `scope` array), `base_url` for GitHub
    /// Enterprise Server.
    private static func github(_ body: ManagementBody) throws -> [String: JSONValue] {
        _ = try body.requiredString("client_id")
        _ = try body.requiredString("client_secret")
        _ = try body.url("base_url")
        var options = body.members
        options["scope"] = .array(try flags(body, githubScopes).map(JSONValue.string))
        return options
    }

    /// The scopes of the flags set to `true`, sorted.
    private static func flags(_ body: ManagementBody, _ scopes: [String: String]) throws -> [String] {
        var result: [String] = []
        for (flag, scope) in scopes where try body.bool(flag) == true { result.append(scope) }
        return result.sorted()
    }

    /// `scope`: space-separated; for OIDC it must contain `openid`.
    private static func scope(_ body: ManagementBody, requiringOpenID: Bool) throws {
        guard let scope = try body.string("scope") else { return }
        if requiringOpenID, !scope.split(separator: " ").contains("openid") {
            throw body.invalid("scope", "Must contain openid")
        }
    }

    /// Runs a check of WardenCore's option parsers, its ``ConnectionOptionError`` answered as 400 `invalid_body`.
    private static func checked(_ check: () throws(ConnectionOptionError) -> Void) throws {
        do {
            try check()
        } catch {
            throw error.managementError
        }
    }

    /// `upstream_params`: each `{"alias": "login_hint"}` or `{"value": "…"}`.
    private static func upstreamParams(_ body: ManagementBody) throws {
        guard let params = try body.jsonObject("upstream_params") else { return }
        let nested = ManagementBody(params, path: "options.upstream_params.")
        for name in params.keys.sorted() {
            guard let entry = try nested.object(name, allowed: ["alias", "value"]),
                (try entry.string("alias") != nil) != (try entry.string("value") != nil)
            else { throw nested.invalid(name, "Expected {\"alias\": …} or {\"value\": …}") }
        }
    }
}
