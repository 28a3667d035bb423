import Foundation
import WardenCore
import WardenWire

extension OAuthError.Code {
    /// A redirect URI of a registration request breaks a rule (RFC 7591 §3.2.2).
    static let invalidRedirectURI: Self = "invalid_redirect_uri"
    /// Other client metadata is invalid (RFC 7591 §3.2.2).
    static let invalidClientMetadata: Self = "invalid_client_metadata"
}

/// The client metadata of `POST /oidc/register` (RFC 7591 §2), checked against SPEC §13: what a registered
/// client may ask for, with every attacker-controlled text bounded before it is stored.
struct RegistrationMetadata: Sendable, Equatable {
    /// The token endpoint authentication methods a registered client may use (SPEC §13).
    static let authMethods: [TokenEndpointAuthMethod] = [.none, .clientSecretBasic, .clientSecretPost, .privateKeyJWT]
    /// At most this many redirect URIs, and this long each (and for the other URIs).
    static let maximumRedirectURIs = 10
    static let maximumURILength = 2000
    /// At most this long: the name, the software id and version.
    static let maximumTextLength = 200
    /// At most this many keys in `jwks`.
    static let maximumKeys = 5
    /// Schemes that are never a redirect target, whatever else they look like.
    static let forbiddenSchemes: Set<String> = ["javascript", "data", "file", "vbscript", "about", "blob"]

    var clientName: String?
    var redirectURIs: [String]
    var grantTypes: [GrantType]
    var tokenEndpointAuthMethod: TokenEndpointAuthMethod
    /// The `jwks` of a `private_key_jwt` client as stored credentials (PEM public keys).
    var credentials: [ClientCredential]
    var scope: String?
    var clientURI: String?
    var logoURI: String?
    var softwareID: String?
    var softwareVersion: String?

    /// Whether the client gets a secret.
    var usesSecret: Bool { tokenEndpointAuthMethod.usesSecret }

    /// Reads and checks `object`; metadata Warden does not use (`application_type`, `contacts`, …) is ignored,
    /// as RFC 7591 §2 allows.
    init(_ object: [String: JSONValue]) throws(OAuthError) {
        clientName = try Self.text(object, "client_name")
        softwareID = try Self.text(object, "software_id")
        softwareVersion = try Self.text(object, "software_version")
        scope = try Self.scope(object)
        clientURI = try Self.webURI(object, "client_uri")
        logoURI = try Self.webURI(object, "logo_uri")
        grantTypes = try Self.grantTypes(object)
        try Self.checkResponseTypes(object)
        redirectURIs = try Self.redirectURIs(object)
        let method = TokenEndpointAuthMethod(
            rawValue: try Self.optionalString(object, "token_endpoint_auth_method") ?? "none")
        guard Self.authMethods.contains(method) else {
            throw Self.invalid(
                "token_endpoint_auth_method must be one of "
                    + Self.authMethods.map(\.rawValue).joined(separator: ", "))
        }
        tokenEndpointAuthMethod = method
        credentials = try Self.credentials(object, method: method)
    }

    /// The client this metadata registers (by `method`), third-party, with the id `id`.
    func client(id: String, issuedAt: Int, method: ClientRegistration.Method = .dynamic) -> Client {
        var client = Client(clientID: id, name: clientName ?? clientURI.flatMap { URL(string: $0)?.host } ?? id)
        client.isFirstParty = false
        client.appType = redirectURIs.allSatisfy(Self.isWebRedirect) ? .regularWeb : .native
        client.grantTypes = grantTypes
        client.callbacks = redirectURIs
        client.tokenEndpointAuthMethod = tokenEndpointAuthMethod == .privateKeyJWT ? nil : tokenEndpointAuthMethod
        if !credentials.isEmpty {
            client.clientAuthenticationMethods = ClientAuthenticationMethods(
                privateKeyJWT: .init(credentials: credentials))
        }
        client.registration = ClientRegistration(
            method: method, issuedAt: issuedAt, clientURI: clientURI, logoURI: logoURI, softwareID: softwareID,
            softwareVersion: softwareVersion, scope: scope)
        return client
    }

    // MARK: - The rules

    private static func invalid(_ message: String) -> OAuthError {
        OAuthError(.invalidClientMetadata, message)
    }

    private static func optionalString(_ object: [String: JSONValue], _ name: String) throws(OAuthError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw invalid("\(name) must be a string")
        }
    }

    /// A bounded, non-empty text without control characters.
    private static func text(_ object: [String: JSONValue], _ name: String) throws(OAuthError) -> String? {
        guard let value = try optionalString(object, name) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= maximumTextLength,
            !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw invalid("\(name) must be 1 to \(maximumTextLength) characters without control characters")
        }
        return trimmed
    }

    /// `scope`: space-separated scope tokens (RFC 6749 §3.3).
    private static func scope(_ object: [String: JSONValue]) throws(OAuthError) -> String? {
        guard let value = try optionalString(object, "scope") else { return nil }
        let tokens = value.split(separator: " ")
        guard value.count <= maximumURILength,
            tokens.allSatisfy({
                $0.unicodeScalars.allSatisfy { $0.value >= 0x21 && $0.value <= 0x7E && $0 != "\"" && $0 != "\\" }
            })
        else { throw invalid("scope must be space-separated scope tokens (RFC 6749 §3.3)") }
        return tokens.isEmpty ? nil : tokens.joined(separator: " ")
    }

    /// `client_uri`, `logo_uri`: an `https` URL (or `http` on a loopback host), shown to people.
    private static func webURI(_ object: [String: JSONValue], _ name: String) throws(OAuthError) -> String? {
        guard let value = try optionalString(object, name) else { return nil }
        guard value.count <= maximumURILength, let url = URL(string: value), url.host?.isEmpty == false,
            url.scheme?.lowercased() == "https" || (url.scheme?.lowercased() == "http" && isLoopback(url.host))
        else { throw invalid("\(name) must be an https URL") }
        return value
    }

    /// `grant_types` ⊆ `authorization_code`, `refresh_token`; default `authorization_code` (RFC 7591 §2).
    private static func grantTypes(_ object: [String: JSONValue]) throws(OAuthError) -> [GrantType] {
        guard let value = object["grant_types"], value != .null else { return [.authorizationCode] }
        guard case .array(let items) = value, !items.isEmpty, items.count <= 4 else {
            throw invalid("grant_types must be a non-empty array")
        }
        var grants: [GrantType] = []
        for item in items {
            guard let name = item.stringValue else { throw invalid("grant_types must be an array of strings") }
            let grant = GrantType(rawValue: name)
            guard ClientRegistration.grantTypes.contains(grant) else {
                throw invalid(
                    "grant_types may hold only authorization_code and refresh_token; a registered client cannot use "
                        + String(name.prefix(100)))
            }
            if !grants.contains(grant) { grants.append(grant) }
        }
        guard grants.contains(.authorizationCode) else {
            throw invalid("grant_types must include authorization_code")
        }
        return grants
    }

    /// `response_types`: `["code"]` when given (RFC 7591 §2.1).
    private static func checkResponseTypes(_ object: [String: JSONValue]) throws(OAuthError) {
        guard let value = object["response_types"], value != .null else { return }
        guard case .array(let items) = value, items == [.string("code")] else {
            throw invalid("response_types must be [\"code\"]")
        }
    }

    /// `redirect_uris`: required; each `https`, `http` on a loopback host with any port (RFC 8252 §7.3), or a
    /// private-use scheme in reverse-domain form (RFC 8252 §7.1); absolute, without a fragment (RFC 6749
    /// §3.1.2).
    private static func redirectURIs(_ object: [String: JSONValue]) throws(OAuthError) -> [String] {
        guard case .array(let items)? = object["redirect_uris"], !items.isEmpty else {
            throw OAuthError(.invalidRedirectURI, "redirect_uris must be a non-empty array of URIs")
        }
        guard items.count <= maximumRedirectURIs else {
            throw OAuthError(.invalidRedirectURI, "At most \(maximumRedirectURIs) redirect_uris")
        }
        var uris: [String] = []
        for item in items {
            guard let uri = item.stringValue else {
                throw OAuthError(.invalidRedirectURI, "redirect_uris must be an array of strings")
            }
            if let problem = problem(redirectURI: uri) {
                throw OAuthError(.invalidRedirectURI, "\(String(uri.prefix(200))): \(problem)")
            }
            if !uris.contains(uri) { uris.append(uri) }
        }
        return uris
    }

    /// Why `uri` cannot be a registered redirect URI, or `nil`.
    static func problem(redirectURI uri: String) -> String? {
        guard uri.count <= maximumURILength else { return "longer than \(maximumURILength) characters" }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return "not an absolute URI"
        }
        guard components.fragment == nil else { return "a redirect URI must not have a fragment" }
        switch scheme {
        case "https":
            return components.host?.isEmpty == false ? nil : "an https redirect URI needs a host"
        case "http":
            return isLoopback(components.host)
                ? nil : "http is allowed only on 127.0.0.1, [::1] or localhost (RFC 8252 §7.3); use https"
        default:
            guard !forbiddenSchemes.contains(scheme) else { return "the scheme \(scheme) is not allowed" }
            // RFC 8252 §7.1: a private-use scheme is a reverse domain name such as com.example.app.
            return scheme.contains(".")
                ? nil : "a private-use scheme must be a reverse domain name such as com.example.app (RFC 8252 §7.1)"
        }
    }

    static func isLoopback(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return host == "127.0.0.1" || host == "[::1]" || host == "::1" || host == "localhost"
    }

    private static func isWebRedirect(_ uri: String) -> Bool {
        guard let url = URL(string: uri) else { return false }
        return url.scheme?.lowercased() == "https" && !isLoopback(url.host)
    }

    /// `jwks` of a `private_key_jwt` client (RFC 7591 §2): RSA (2048 bits or more) and P-256 public keys, stored
    /// as PEM like the keys an operator registers (SPEC §4). `jwks_uri` is not followed.
    private static func credentials(
        _ object: [String: JSONValue], method: TokenEndpointAuthMethod
    ) throws(OAuthError) -> [ClientCredential] {
        guard method == .privateKeyJWT else {
            guard object["jwks"] == nil || object["jwks"] == .null else {
                throw invalid("jwks is only for token_endpoint_auth_method private_key_jwt")
            }
            return []
        }
        guard case .object(let set)? = object["jwks"], case .array(let keys)? = set["keys"], !keys.isEmpty,
            keys.count <= maximumKeys
        else {
            throw invalid("private_key_jwt needs jwks with 1 to \(maximumKeys) public keys (jwks_uri is not supported)")
        }
        var credentials: [ClientCredential] = []
        for (index, key) in keys.enumerated() {
            guard case .object(let jwk) = key, let pem = (try? JWSVerifier(publicJWK: jwk))?.publicKeyPEM else {
                throw invalid("jwks.keys[\(index)] is not an RSA (2048 bits or more) or P-256 public key")
            }
            credentials.append(
                ClientCredential(
                    id: RandomToken.identifier(prefix: "cred_"), credentialType: "public_key",
                    name: jwk["kid"]?.stringValue.map { String($0.prefix(maximumTextLength)) }, pem: pem,
                    alg: jwk["alg"]?.stringValue))
        }
        return credentials
    }
}
