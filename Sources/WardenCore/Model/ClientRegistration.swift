import Foundation
public import WardenWire

/// How a third-party client was registered without an operator (SPEC §13), kept on the client: the Management
/// API shows it (read-only) and the consent page says the client is not verified, naming the `client_uri` host.
public struct ClientRegistration: Codable, Sendable, Equatable {
    /// The way a client registered itself: an open set of values (SPEC §13).
    public struct Method: OpenStringValue {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `POST /oidc/register` (RFC 7591).
        public static let dynamic: Method = "dynamic"
        /// A Client ID Metadata Document: the `client_id` is the URL of the client's metadata.
        public static let metadataDocument: Method = "metadata_document"
    }

    /// The grants a registered client can ever use: no `client_credentials`, CIBA or session transfer (SPEC
    /// §13), whatever its `grant_types` say.
    public static let grantTypes: Set<GrantType> = [.authorizationCode, .refreshToken]
    /// A registered client is deleted this long after its registration or its last token (SPEC §13: 30 days).
    public static let unusedLifetime: Double = 30 * 86400

    public var method: Method
    /// When it registered, in seconds since the epoch (RFC 7591 §3.2.1 `client_id_issued_at`).
    public var issuedAt: Int
    /// RFC 7591 §2 metadata kept for display and for the registration response.
    public var clientURI: String?
    public var logoURI: String?
    public var softwareID: String?
    public var softwareVersion: String?
    public var scope: String?

    enum CodingKeys: String, CodingKey {
        case method
        case issuedAt = "client_id_issued_at"
        case clientURI = "client_uri"
        case logoURI = "logo_uri"
        case softwareID = "software_id"
        case softwareVersion = "software_version"
        case scope
    }

    public init(
        method: Method, issuedAt: Int, clientURI: String? = nil, logoURI: String? = nil,
        softwareID: String? = nil, softwareVersion: String? = nil, scope: String? = nil
    ) {
        self.method = method
        self.issuedAt = issuedAt
        self.clientURI = clientURI
        self.logoURI = logoURI
        self.softwareID = softwareID
        self.softwareVersion = softwareVersion
        self.scope = scope
    }

    /// The host of `client_uri`, shown on the consent page.
    public var clientHost: String? { clientURI.flatMap { URL(string: $0)?.host } }
}
