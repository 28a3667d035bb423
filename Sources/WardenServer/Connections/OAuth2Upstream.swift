import Foundation
import WardenCore
import WardenWire

/// An OAuth 2.0 upstream (SPEC §15 `oauth2` and its `github` preset): the authorization request, the code
/// exchanged at the token endpoint, and the profile read with the access token — Warden's declarative profile
/// (`userinfo_url`, `user_id_field`, `fieldsMap`) for `oauth2`, GitHub's REST API (`GET /user`, and with the
/// `email` flag the primary verified address of `GET /user/emails`) for `github`, at `base_url` for GitHub
/// Enterprise Server.
struct OAuth2Upstream: Upstream {
    let connection: Connection
    let http: UpstreamHTTP
    /// `{issuer}login/callback`.
    let callbackURL: String

    private var options: [String: JSONValue] { connection.options }
    private var isGitHub: Bool { connection.strategy == .github }
    /// `https://github.com`, or the GitHub Enterprise Server's `base_url`.
    private var gitHubBase: String {
        let base = options["base_url"]?.stringValue ?? "https://github.com"
        return base.hasSuffix("/") ? String(base.dropLast()) : base
    }
    /// GitHub's REST API: `https://api.github.com`, or `{base_url}/api/v3` on GitHub Enterprise Server.
    private var gitHubAPI: String {
        options["base_url"] == nil ? "https://api.github.com" : gitHubBase + "/api/v3"
    }

    var pkceMethod: String? {
        !isGitHub && options["pkce_enabled"] == .bool(true) ? "S256" : nil
    }

    func authorizationURL(state: String, nonce: String, verifier: String?, request: AuthorizationRequest) -> String {
        var fields: [(String, String)] = [
            ("response_type", "code"), ("client_id", options["client_id"]?.stringValue ?? ""),
            ("redirect_uri", callbackURL), ("state", state),
        ]
        let scopes = Self.scopes(options["scope"], default: [], adding: request)
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        if let verifier, pkceMethod != nil {
            fields.append(("code_challenge", SecretHash.sha256Base64URL(verifier)))
            fields.append(("code_challenge_method", "S256"))
        }
        for (name, value) in (options["authParams"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let text = value.stringValue { fields.append((name, text)) }
        }
        let endpoint =
            isGitHub ? gitHubBase + "/login/oauth/authorize" : options["authorizationURL"]?.stringValue ?? ""
        return Self.url(endpoint, fields)
    }

    func identity(from callback: [String: String], state: UpstreamLoginState) async throws
        -> UpstreamUserProfile
    {
        if let refusal = Self.refusal(callback) { throw refusal }
        guard let code = callback["code"], !code.isEmpty else {
            throw UpstreamFailure.denied("The identity provider's answer has no code")
        }
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callbackURL),
            ("client_id", options["client_id"]?.stringValue ?? ""),
        ]
        if let secret = options["client_secret"]?.stringValue { form.append(("client_secret", secret)) }
        if let verifier = state.codeVerifier, pkceMethod != nil { form.append(("code_verifier", verifier)) }
        let url = isGitHub ? gitHubBase + "/login/oauth/access_token" : options["tokenURL"]?.stringValue ?? ""
        let tokens = try await Self.tokenResponse { () async throws in
            try await http.postForm(url, form)
        }
        guard let accessToken = tokens["access_token"]?.stringValue else {
            throw UpstreamFailure.denied("The identity provider's token response has no access_token")
        }
        var identity = isGitHub ? try await gitHubProfile(accessToken) : try await declarativeProfile(accessToken)
        identity.tokens = UpstreamTokenSet(tokenResponse: tokens)
        return identity
    }

    /// `oauth2`: `GET userinfo_url` with the access token, read through `user_id_field` and `fieldsMap`.
    private func declarativeProfile(_ accessToken: String) async throws -> UpstreamUserProfile {
        let headers = (options["customHeaders"]?.objectValue ?? [:]).compactMap { name, value in
            value.stringValue.map { (name, $0) }
        }
        let userinfo = try await json(options["userinfo_url"]?.stringValue ?? "", accessToken, headers: headers)
        let mapping: OAuth2ProfileMapping
        do {
            mapping = try OAuth2ProfileMapping(options: options)
        } catch {
            throw UpstreamFailure.denied("The connection's profile mapping cannot be used: \(error)")
        }
        guard let profile = mapping.profile(userinfo: userinfo) else {
            throw UpstreamFailure.denied("The identity provider's profile has no user id (user_id_field)")
        }
        return profile
    }

    /// `github`: `GET /user` (its numeric `id`, `login`, `name`, `avatar_url`) and, with the `email` flag, the
    /// primary verified address of `GET /user/emails`; `email_verified` only for that one.
    private func gitHubProfile(_ accessToken: String) async throws -> UpstreamUserProfile {
        let headers = [("X-GitHub-Api-Version", "2022-11-28")]
        var profile = try await json(gitHubAPI + "/user", accessToken, headers: headers, accept: Self.gitHubMedia)
        guard let id = profile["id"].flatMap(UpstreamUserID.init), case .number = id else {
            throw UpstreamFailure.denied("GitHub's profile has no numeric id")
        }
        profile["email"] = nil
        if options["email"] == .bool(true) {
            let emails = try await jsonArray(gitHubAPI + "/user/emails", accessToken, headers: headers)
            if let primary = emails.first(where: { $0["primary"] == .bool(true) && $0["verified"] == .bool(true) }) {
                profile["email"] = primary["email"]
                profile["email_verified"] = .bool(true)
            }
        }
        profile["nickname"] = profile["login"]
        profile["picture"] = profile["avatar_url"]
        return UpstreamUserProfile(userID: id, profile: FederatedProfile(profileData: profile))
    }

    static let gitHubMedia = "application/vnd.github+json"

    private func answer(
        _ url: String, _ accessToken: String, headers: [(String, String)], accept: String
    ) async throws -> UpstreamHTTP.Answer {
        let answer: UpstreamHTTP.Answer
        do {
            answer = try await http.get(url, bearer: accessToken, accept: accept, headers: headers)
        } catch {
            throw UpstreamFailure.denied("The identity provider's profile could not be read: \(error)")
        }
        guard answer.status == 200 else {
            throw UpstreamFailure.denied("The identity provider's profile answered HTTP \(answer.status)")
        }
        return answer
    }

    private func json(
        _ url: String, _ accessToken: String, headers: [(String, String)], accept: String = "application/json"
    ) async throws -> [String: JSONValue] {
        let answer = try await answer(url, accessToken, headers: headers, accept: accept)
        do {
            return try answer.jsonObject("the profile")
        } catch {
            throw UpstreamFailure.denied("The identity provider's profile is not a JSON object")
        }
    }

    private func jsonArray(_ url: String, _ accessToken: String, headers: [(String, String)])
        async throws -> [JSONValue]
    {
        let answer = try await answer(url, accessToken, headers: headers, accept: Self.gitHubMedia)
        guard let value = try? JSONValue(parsing: answer.body), let items = value.arrayValue else {
            throw UpstreamFailure.denied("GitHub's e-mail addresses are not a JSON array")
        }
        return items
    }
}
