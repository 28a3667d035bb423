public import WardenWire

/// Where a user's identity lives (SPEC §15): Warden's own database or an upstream identity provider, managed on
/// the reference platform's wire (`/api/v2/connections`). Its `options` are kept as the JSON object the
/// Management API accepted, secrets included; ``publicOptions`` is what responses show.
public struct Connection: Sendable, Equatable, Codable {
    /// The database connection's name (SPEC §15.1), made by migration and enabled for every client.
    public static let databaseName = "Username-Password-Authentication"
    /// The database connection's id (kept from before connections were data: bulk-users jobs carry it).
    public static let databaseID = "con_UsernamePasswordAuthentication"

    /// Option names whose values Warden never shows again (SPEC §15: secrets are write-only).
    public static let secretOptions: Set<String> = ["client_secret", "signing_key", "decryption_key"]

    public var id: String
    public var name: String
    public var displayName: String
    public var strategy: ConnectionStrategy
    public var options: [String: JSONValue]
    public var isDomainConnection: Bool
    public var showAsButton: Bool
    public var realms: [String]
    public var metadata: [String: String]

    /// A connection with SPEC §15's defaults: `display_name` = `name`, `realms` `[name]`, no options.
    public init(id: String, name: String, strategy: ConnectionStrategy) {
        self.id = id
        self.name = name
        self.displayName = name
        self.strategy = strategy
        self.options = [:]
        self.isDomainConnection = false
        self.showAsButton = false
        self.realms = [name]
        self.metadata = [:]
    }

    /// The database connection as the migration and the bootstrap make it.
    public static var database: Connection {
        var connection = Connection(id: databaseID, name: databaseName, strategy: .auth0)
        connection.options = ["passwordPolicy": "good"]
        return connection
    }

    /// Whether this is the password database (strategy `auth0`).
    public var isDatabase: Bool { strategy == .auth0 }

    /// `options` without the write-only secrets, as every response shows them.
    public var publicOptions: [String: JSONValue] {
        options.filter { !Self.secretOptions.contains($0.key) }
    }

    /// `new` as a PATCH gives it (it replaces `options` whole), with the stored secrets that `new` leaves out or
    /// sets to `null`.
    public func keepingSecrets(in new: [String: JSONValue]) -> [String: JSONValue] {
        var merged = new
        for name in Self.secretOptions where merged[name] == nil || merged[name] == .null {
            merged[name] = options[name]
        }
        return merged
    }

    enum CodingKeys: String, CodingKey {
        case id, name, strategy, options, realms, metadata
        case displayName = "display_name"
        case isDomainConnection = "is_domain_connection"
        case showAsButton = "show_as_button"
    }
}
