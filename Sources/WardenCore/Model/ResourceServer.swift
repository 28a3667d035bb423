/// An API that access tokens are issued for (SPEC §9 `/resource-servers`).
public struct ResourceServer: Codable, Sendable, Equatable {
    public var id: String
    public var identifier: String
    public var name: String
    public var scopes: [Scope]
    public var tokenLifetime: Int
    public var signingAlg: SigningAlgorithm
    public var authorizationDetails: [AuthorizationDetailType]
    public var enforcePolicies: Bool
    public var allowOfflineAccess: Bool
    public var skipConsentForVerifiableFirstPartyClients: Bool
    public var isSystem: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, identifier, name, scopes
        case tokenLifetime = "token_lifetime"
        case signingAlg = "signing_alg"
        case authorizationDetails = "authorization_details"
        case enforcePolicies = "enforce_policies"
        case allowOfflineAccess = "allow_offline_access"
        case skipConsentForVerifiableFirstPartyClients = "skip_consent_for_verifiable_first_party_clients"
        case isSystem = "is_system"
    }

    /// The properties a Management API body may set (`id` and `is_system` are server-owned).
    public static let writablePropertyNames: Set<String> = Set(CodingKeys.allCases.map(\.rawValue)).subtracting([
        "id", "is_system",
    ])

    public init(id: String, identifier: String, name: String) {
        self.id = id
        self.identifier = identifier
        self.name = name
        self.scopes = []
        self.tokenLifetime = 86400
        self.signingAlg = .rs256
        self.authorizationDetails = []
        self.enforcePolicies = false
        self.allowOfflineAccess = false
        self.skipConsentForVerifiableFirstPartyClients = true
        self.isSystem = false
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        identifier = try c.decode(String.self, forKey: .identifier)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? identifier
        scopes = try c.decodeIfPresent([Scope].self, forKey: .scopes) ?? []
        tokenLifetime = try c.decodeIfPresent(Int.self, forKey: .tokenLifetime) ?? 86400
        signingAlg = try c.decodeIfPresent(SigningAlgorithm.self, forKey: .signingAlg) ?? .rs256
        authorizationDetails =
            try c.decodeIfPresent([AuthorizationDetailType].self, forKey: .authorizationDetails) ?? []
        enforcePolicies = try c.decodeIfPresent(Bool.self, forKey: .enforcePolicies) ?? false
        allowOfflineAccess = try c.decodeIfPresent(Bool.self, forKey: .allowOfflineAccess) ?? false
        skipConsentForVerifiableFirstPartyClients =
            try c.decodeIfPresent(Bool.self, forKey: .skipConsentForVerifiableFirstPartyClients) ?? true
        isSystem = try c.decodeIfPresent(Bool.self, forKey: .isSystem) ?? false
    }

    /// A permission the API defines.
    public struct Scope: Codable, Sendable, Equatable {
        public var value: String
        public var description: String?
        public init(value: String, description: String? = nil) {
            self.value = value
            self.description = description
        }
    }

    /// A Rich Authorization Request type registered on the API (RFC 9396 §2).
    public struct AuthorizationDetailType: Codable, Sendable, Equatable {
        public var type: String
        public init(type: String) { self.type = type }
    }

    public var scopeValues: Set<String> { Set(scopes.map(\.value)) }
}
