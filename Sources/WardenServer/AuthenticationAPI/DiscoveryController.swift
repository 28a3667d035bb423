import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// `/.well-known/openid-configuration` (OIDC Discovery 1.0 §3) and the same document at
/// `/.well-known/oauth-authorization-server` (RFC 8414 §3), and `/.well-known/jwks.json` (RFC 7517 §5). The
/// document lists the endpoints and grants this build serves (SPEC §2).
struct DiscoveryController: Sendable {
    /// OpenID Provider Authentication Policy Extension 1.0 §4: the `acr` of a login with a second factor
    /// (SPEC §12).
    static let multiFactorACR = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"

    /// `{issuer}` with its trailing slash.
    let issuer: String
    /// `{issuer}userinfo`.
    let userinfoEndpoint: String
    /// The `grant_type`s the token endpoint answers.
    let grantTypes: [String]
    /// The published keys (`jwks.json`).
    let keys: KeyManager
    /// The APIs, whose `authorization_details` types the document lists.
    let tenant: TenantCache
    /// Whether `/oidc/register` exists (SPEC §13).
    let registrationMode: WardenConfiguration.RegistrationMode
    /// Whether a `client_id` may be a metadata document's URL (SPEC §13).
    let clientMetadataDocuments: Bool

    /// The documents of `issuer`, listing `grantTypes`, the keys of `keys`, the types of the APIs of `tenant` and
    /// the registration endpoint unless `registrationMode` is `off`, and `client_id_metadata_document_supported`
    /// when `clientMetadataDocuments` is on.
    init(
        issuer: String, userinfoEndpoint: String, grantTypes: [String], keys: KeyManager, tenant: TenantCache,
        registrationMode: WardenConfiguration.RegistrationMode, clientMetadataDocuments: Bool
    ) {
        self.issuer = issuer
        self.userinfoEndpoint = userinfoEndpoint
        self.grantTypes = grantTypes
        self.keys = keys
        self.tenant = tenant
        self.registrationMode = registrationMode
        self.clientMetadataDocuments = clientMetadataDocuments
    }

    /// The JWKS's path; its answer also comes from ``PreparedResponses``, before the router.
    static let jwksPath = "/.well-known/jwks.json"
    /// How long clients and caches may reuse the JWKS (RFC 9111 §5.2.2.1 `max-age`).
    static let jwksCacheControl = "public, max-age=60"

    func addRoutes(to router: Router<WardenRequestContext>) {
        let fixed = members()
        let configuration = { @Sendable () -> String in
            // RFC 9396 §10 / SPEC §2: always present, the union of every API's types, as current as the tenant
            // cache (which a change on this node reloads before it answers).
            let types = JSONValue.array(tenant.authorizationDetailsTypes.map { .string($0) })
            return JSONValue.serializedObject(fixed + [("authorization_details_types_supported", types)])
        }
        router.get(".well-known/openid-configuration") { _, _ in
            Response.json(configuration())
        }
        router.get(".well-known/oauth-authorization-server") { _, _ in
            Response.json(configuration())
        }
        router.get(RouterPath(Self.jwksPath)) { _, _ in
            var response = Response.json(keys.ring.snapshot.jwksJSON)
            response.headers[.cacheControl] = Self.jwksCacheControl
            return response
        }
    }

    /// The members of the document that do not change while the process runs, in wire order.
    func members() -> [(String, JSONValue)] {
        // SPEC §13: the registration endpoint and metadata documents, when they are on.
        var registration: [(String, JSONValue)] =
            registrationMode == .off ? [] : [("registration_endpoint", .string(issuer + "oidc/register"))]
        if clientMetadataDocuments { registration.append(("client_id_metadata_document_supported", true)) }
        return [
            ("issuer", .string(issuer)),
            ("authorization_endpoint", .string(issuer + "authorize")),
            ("token_endpoint", .string(issuer + "oauth/token")),
            ("userinfo_endpoint", .string(userinfoEndpoint)),
            ("jwks_uri", .string(issuer + ".well-known/jwks.json")),
            ("revocation_endpoint", .string(issuer + "oauth/revoke")),
            ("end_session_endpoint", .string(issuer + "oidc/logout")),
            ("introspection_endpoint", .string(issuer + "oauth/introspect")),
            ("backchannel_authentication_endpoint", .string(issuer + "bc-authorize")),
            (
                "backchannel_token_delivery_modes_supported",
                .array(ClientsController.deliveryModes.map { .string($0.rawValue) })
            ),
            ("backchannel_user_code_parameter_supported", false),
            ("grant_types_supported", .array(grantTypes.map { .string($0) })),
            ("response_types_supported", ["code"]),
            ("response_modes_supported", ["query", "form_post"]),
            ("code_challenge_methods_supported", ["S256"]),
            ("subject_types_supported", ["public"]),
            (
                "token_endpoint_auth_methods_supported",
                .array(
                    [TokenEndpointAuthMethod.clientSecretBasic, .clientSecretPost, .privateKeyJWT, .none].map {
                        .string($0.rawValue)
                    })
            ),
            ("token_endpoint_auth_signing_alg_values_supported", ["RS256", "PS256", "ES256"]),
            // Every algorithm a client may choose; its key is made on first use (KeyManager).
            ("id_token_signing_alg_values_supported", .array(SigningAlgorithm.allCases.map { .string($0.rawValue) })),
            ("scopes_supported", ["openid", "profile", "email", "offline_access"]),
            (
                "claims_supported",
                [
                    "acr", "amr", "aud", "auth_time", "email", "email_verified", "exp", "family_name", "given_name",
                    "iat", "iss", "name", "nickname", "picture", "sid", "sub", "updated_at",
                ] as JSONValue
            ),
            // SPEC §5 / OIDC Core §6: `request` and `request_uri` are refused at /authorize.
            ("request_parameter_supported", false),
            ("request_uri_parameter_supported", false),
            ("acr_values_supported", [.string(Self.multiFactorACR)]),
        ] + registration
    }
}
