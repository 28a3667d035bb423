/// Which API scopes a client may obtain with `client_credentials` (SPEC §9 `/client-grants`).
public struct ClientGrant: Codable, Sendable, Equatable {
    public var id: String
    public var clientID: String
    public var audience: String
    public var scope: [String]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case audience, scope
    }

    public static let writablePropertyNames: Set<String> = ["client_id", "audience", "scope"]

    public init(id: String, clientID: String, audience: String, scope: [String]) {
        self.id = id
        self.clientID = clientID
        self.audience = audience
        self.scope = scope
    }
}
