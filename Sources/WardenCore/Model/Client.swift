public import WardenWire

/// An application registered with Warden (SPEC §4): the Management API `/api/v2/clients` object.
///
/// Secrets are not part of this value: the hash lives only in storage (``ClientRecord``).
public struct Client: Codable, Sendable, Equatable {
    public var clientID: String
    public var name: String
    public var description: String?
    public var appType: AppType?
    public var isFirstParty: Bool
    public var grantTypes: [GrantType]
    public var callbacks: [String]
    public var allowedLogoutURLs: [String]
    public var allowedOrigins: [String]
    public var webOrigins: [String]
    public var initiateLoginURI: String?
    /// `none`, `client_secret_post`, `client_secret_basic` (RFC 7591 §2); `nil` when `private_key_jwt` is
    /// configured.
    public var tokenEndpointAuthMethod: TokenEndpointAuthMethod?
    public var clientAuthenticationMethods: ClientAuthenticationMethods?
    public var jwtConfiguration: JWTConfiguration
    public var refreshToken: RefreshTokenConfiguration
    public var sessionTransfer: SessionTransferConfiguration?
    /// `poll` or `ping` (OpenID CIBA Core §4); `nil` reads as `poll`.
    public var backchannelTokenDeliveryMode: BackchannelTokenDeliveryMode?
    public var backchannelClientNotificationEndpoint: String?
    public var clientMetadata: [String: String]
    /// Set when the client registered itself (SPEC §13); `nil` for clients an operator made.
    public var registration: ClientRegistration?
    /// `organization_usage` (SPEC §19); `nil` reads as `deny`.
    public var organizationUsage: OrganizationUsage?
    /// `organization_require_behavior` (SPEC §19); `nil` reads as `no_prompt`.
    public var organizationRequireBehavior: OrganizationRequireBehavior?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case clientID = "client_id"
        case name, description
        case appType = "app_type"
        case isFirstParty = "is_first_party"
        case grantTypes = "grant_types"
        case callbacks
        case allowedLogoutURLs = "allowed_logout_urls"
        case allowedOrigins = "allowed_origins"
        case webOrigins = "web_origins"
        case initiateLoginURI = "initiate_login_uri"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case clientAuthenticationMethods = "client_authentication_methods"
        case jwtConfiguration = "jwt_configuration"
        case refreshToken = "refresh_token"
        case sessionTransfer = "session_transfer"
        case backchannelTokenDeliveryMode = "backchannel_token_delivery_mode"
        case backchannelClientNotificationEndpoint = "backchannel_client_notification_endpoint"
        case clientMetadata = "client_metadata"
        case registration
        case organizationUsage = "organization_usage"
        case organizationRequireBehavior = "organization_require_behavior"
    }

    /// The JSON property names a Management API body may carry.
    public static let propertyNames: Set<String> = Set(CodingKeys.allCases.map(\.rawValue))

    public init(clientID: String, name: String) {
        self.clientID = clientID
        self.name = name
        self.isFirstParty = true
        self.grantTypes = []
        self.callbacks = []
        self.allowedLogoutURLs = []
        self.allowedOrigins = []
        self.webOrigins = []
        self.tokenEndpointAuthMethod = .clientSecretPost
        self.jwtConfiguration = JWTConfiguration()
        self.refreshToken = RefreshTokenConfiguration()
        self.clientMetadata = [:]
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try c.decode(String.self, forKey: .clientID)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        appType = try c.decodeIfPresent(AppType.self, forKey: .appType)
        isFirstParty = try c.decodeIfPresent(Bool.self, forKey: .isFirstParty) ?? true
        grantTypes = try c.decodeIfPresent([GrantType].self, forKey: .grantTypes) ?? []
        callbacks = try c.decodeIfPresent([String].self, forKey: .callbacks) ?? []
        allowedLogoutURLs = try c.decodeIfPresent([String].self, forKey: .allowedLogoutURLs) ?? []
        allowedOrigins = try c.decodeIfPresent([String].self, forKey: .allowedOrigins) ?? []
        webOrigins = try c.decodeIfPresent([String].self, forKey: .webOrigins) ?? []
        initiateLoginURI = try c.decodeIfPresent(String.self, forKey: .initiateLoginURI)
        tokenEndpointAuthMethod = try c.decodeIfPresent(
            TokenEndpointAuthMethod.self, forKey: .tokenEndpointAuthMethod)
        clientAuthenticationMethods = try c.decodeIfPresent(
            ClientAuthenticationMethods.self, forKey: .clientAuthenticationMethods)
        jwtConfiguration = try c.decodeIfPresent(JWTConfiguration.self, forKey: .jwtConfiguration) ?? .init()
        refreshToken = try c.decodeIfPresent(RefreshTokenConfiguration.self, forKey: .refreshToken) ?? .init()
        sessionTransfer = try c.decodeIfPresent(SessionTransferConfiguration.self, forKey: .sessionTransfer)
        backchannelTokenDeliveryMode = try c.decodeIfPresent(
            BackchannelTokenDeliveryMode.self, forKey: .backchannelTokenDeliveryMode)
        backchannelClientNotificationEndpoint = try c.decodeIfPresent(
            String.self, forKey: .backchannelClientNotificationEndpoint)
        clientMetadata = try c.decodeIfPresent([String: String].self, forKey: .clientMetadata) ?? [:]
        registration = try c.decodeIfPresent(ClientRegistration.self, forKey: .registration)
        organizationUsage = try c.decodeIfPresent(OrganizationUsage.self, forKey: .organizationUsage)
        organizationRequireBehavior = try c.decodeIfPresent(
            OrganizationRequireBehavior.self, forKey: .organizationRequireBehavior)
    }

    /// Whether the client authenticates without a secret (public native/SPA clients).
    public var isPublic: Bool {
        tokenEndpointAuthMethod == TokenEndpointAuthMethod.none && clientAuthenticationMethods?.privateKeyJWT == nil
    }

    /// Whether this client may use `grant` (SPEC §4: `unauthorized_client` otherwise). A registered client never
    /// gets more than ``ClientRegistration/grantTypes`` (SPEC §13).
    public func allows(_ grant: GrantType) -> Bool {
        if registration != nil, !ClientRegistration.grantTypes.contains(grant) { return false }
        return grantTypes.contains(grant)
    }
}

/// `jwt_configuration`: how ID tokens for this client are signed.
public struct JWTConfiguration: Codable, Sendable, Equatable {
    public var alg: SigningAlgorithm
    public var lifetimeInSeconds: Int

    enum CodingKeys: String, CodingKey {
        case alg
        case lifetimeInSeconds = "lifetime_in_seconds"
    }

    public init(alg: SigningAlgorithm = .rs256, lifetimeInSeconds: Int = 36000) {
        self.alg = alg
        self.lifetimeInSeconds = lifetimeInSeconds
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        alg = try c.decodeIfPresent(SigningAlgorithm.self, forKey: .alg) ?? .rs256
        lifetimeInSeconds = try c.decodeIfPresent(Int.self, forKey: .lifetimeInSeconds) ?? 36000
    }
}

/// `refresh_token` settings of a client (SPEC §3).
public struct RefreshTokenConfiguration: Codable, Sendable, Equatable {
    public var rotationType: RotationType
    public var expirationType: ExpirationType
    public var tokenLifetime: Int
    public var leeway: Int

    enum CodingKeys: String, CodingKey {
        case rotationType = "rotation_type"
        case expirationType = "expiration_type"
        case tokenLifetime = "token_lifetime"
        case leeway
    }

    public init(
        rotationType: RotationType = .nonRotating, expirationType: ExpirationType = .nonExpiring,
        tokenLifetime: Int = 2_592_000, leeway: Int = 0
    ) {
        self.rotationType = rotationType
        self.expirationType = expirationType
        self.tokenLifetime = tokenLifetime
        self.leeway = leeway
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rotationType = try c.decodeIfPresent(RotationType.self, forKey: .rotationType) ?? .nonRotating
        expirationType = try c.decodeIfPresent(ExpirationType.self, forKey: .expirationType) ?? .nonExpiring
        tokenLifetime = try c.decodeIfPresent(Int.self, forKey: .tokenLifetime) ?? 2_592_000
        leeway = try c.decodeIfPresent(Int.self, forKey: .leeway) ?? 0
    }

    /// `refresh_token.rotation_type` (SPEC §3): an open set of `RawRepresentable` values, encoded as the plain
    /// string; the Management API's validation accepts the two below.
    public struct RotationType: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The refresh token is used again and again; the default.
        public static let nonRotating: RotationType = "non-rotating"
        /// Each use returns a new one; reusing an old one revokes the whole family (RFC 9700 §4.14).
        public static let rotating: RotationType = "rotating"
    }

    /// `refresh_token.expiration_type` (SPEC §4): an open set of `RawRepresentable` values, encoded as the plain
    /// string; the Management API's validation accepts the two below.
    public struct ExpirationType: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The refresh token lives until revoked; the default.
        public static let nonExpiring: ExpirationType = "non-expiring"
        /// The refresh token expires after `token_lifetime` seconds.
        public static let expiring: ExpirationType = "expiring"
    }
}

/// `session_transfer` settings (SPEC §8).
public struct SessionTransferConfiguration: Codable, Sendable, Equatable {
    public var canCreateSessionTransferToken: Bool
    public var allowedAuthenticationMethods: [String]
    public var enforceDeviceBinding: DeviceBinding
    public var allowRefreshToken: Bool
    public var enforceCascadeRevocation: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case canCreateSessionTransferToken = "can_create_session_transfer_token"
        case allowedAuthenticationMethods = "allowed_authentication_methods"
        case enforceDeviceBinding = "enforce_device_binding"
        case allowRefreshToken = "allow_refresh_token"
        case enforceCascadeRevocation = "enforce_cascade_revocation"
    }

    public static let propertyNames: Set<String> = Set(CodingKeys.allCases.map(\.rawValue))

    public init() {
        canCreateSessionTransferToken = false
        allowedAuthenticationMethods = []
        enforceDeviceBinding = .ip
        allowRefreshToken = false
        enforceCascadeRevocation = true
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        canCreateSessionTransferToken =
            try c.decodeIfPresent(Bool.self, forKey: .canCreateSessionTransferToken) ?? false
        allowedAuthenticationMethods =
            try c.decodeIfPresent([String].self, forKey: .allowedAuthenticationMethods) ?? []
        enforceDeviceBinding = try c.decodeIfPresent(DeviceBinding.self, forKey: .enforceDeviceBinding) ?? .ip
        allowRefreshToken = try c.decodeIfPresent(Bool.self, forKey: .allowRefreshToken) ?? false
        enforceCascadeRevocation = try c.decodeIfPresent(Bool.self, forKey: .enforceCascadeRevocation) ?? true
    }
}

/// `client_authentication_methods` (SPEC §4): registered `private_key_jwt` public keys.
public struct ClientAuthenticationMethods: Codable, Sendable, Equatable {
    public var privateKeyJWT: PrivateKeyJWT?

    enum CodingKeys: String, CodingKey {
        case privateKeyJWT = "private_key_jwt"
    }

    public init(privateKeyJWT: PrivateKeyJWT?) {
        self.privateKeyJWT = privateKeyJWT
    }

    public struct PrivateKeyJWT: Codable, Sendable, Equatable {
        public var credentials: [ClientCredential]
        public init(credentials: [ClientCredential]) { self.credentials = credentials }
    }
}

/// A public key registered for `private_key_jwt`. The PEM is stored but never returned (SPEC §4).
public struct ClientCredential: Codable, Sendable, Equatable {
    public var id: String?
    public var credentialType: String
    public var name: String?
    public var pem: String?
    public var alg: String?
    public var createdAt: String?

    enum CodingKeys: String, CodingKey {
        case id
        case credentialType = "credential_type"
        case name, pem, alg
        case createdAt = "created_at"
    }

    public init(id: String?, credentialType: String, name: String?, pem: String?, alg: String? = nil) {
        self.id = id
        self.credentialType = credentialType
        self.name = name
        self.pem = pem
        self.alg = alg
    }
}
