/// What a post-login rule or ``PostLoginPolicy`` sees of a login (SPEC §8 "Post-login rules"): the request, the
/// session transfer token it used if any, the user and the client. Paths of rules map onto it:
/// `event.request.ip|asn|user_agent|geoip.countryCode`, `event.session_transfer_token.client_id|scope|request.*`,
/// `event.user.*`, `event.client.client_id|name|app_type`.
public struct LoginEvent: Sendable {
    /// Where a request came from.
    public struct RequestInfo: Sendable, Equatable {
        public var ip: String?
        /// From the IP database (`--ip-database`), when loaded and the address is in it.
        public var asn: Int?
        public var userAgent: String?
        /// From the IP database (`geoip.countryCode`).
        public var countryCode: String?

        public init(ip: String?, asn: Int? = nil, userAgent: String? = nil, countryCode: String? = nil) {
            self.ip = ip
            self.asn = asn
            self.userAgent = userAgent
            self.countryCode = countryCode
        }
    }

    /// The session transfer token a login used (SPEC §8): who made it and from where.
    public struct SessionTransferInfo: Sendable, Equatable {
        /// The native client that exchanged its refresh token.
        public var clientID: String
        public var scope: [String]
        /// The request that created the token.
        public var request: RequestInfo

        public init(clientID: String, scope: [String], request: RequestInfo) {
            self.clientID = clientID
            self.scope = scope
            self.request = request
        }
    }

    public var request: RequestInfo
    public var sessionTransferToken: SessionTransferInfo?
    public var user: User
    public var client: Client
    /// The connection the person signed in through (SPEC §15: `event.connection.name|strategy`).
    public var connectionName: String
    public var connectionStrategy: ConnectionStrategy

    public init(
        request: RequestInfo, sessionTransferToken: SessionTransferInfo? = nil, user: User, client: Client,
        connectionName: String = Connection.databaseName, connectionStrategy: ConnectionStrategy = .auth0
    ) {
        self.request = request
        self.sessionTransferToken = sessionTransferToken
        self.user = user
        self.client = client
        self.connectionName = connectionName
        self.connectionStrategy = connectionStrategy
    }
}
