public import Foundation
public import WardenWire

/// A business customer of an application (SPEC §19): its members, the connections they sign in with, roles that
/// hold inside it, invitations and branding. Encoded in the Management API's shape.
public struct Organization: Codable, Sendable, Hashable {
    /// `org_` + 16 alphanumerics.
    public var id: String
    /// 1–50 of `[a-z0-9_-]`, unique: what `/authorize?organization=` may name.
    public var name: String
    public var displayName: String?
    public var branding: Branding?
    /// At most 25 string values.
    public var metadata: [String: String]

    public init(
        id: String, name: String, displayName: String? = nil, branding: Branding? = nil,
        metadata: [String: String] = [:]
    ) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.branding = branding
        self.metadata = metadata
    }

    /// The organization's look on the login page.
    public struct Branding: Codable, Sendable, Hashable {
        public var logoURL: String?
        public var colors: Colors?

        public init(logoURL: String? = nil, colors: Colors? = nil) {
            self.logoURL = logoURL
            self.colors = colors
        }

        /// CSS colors (`#rrggbb`).
        public struct Colors: Codable, Sendable, Hashable {
            public var primary: String?
            public var pageBackground: String?

            public init(primary: String? = nil, pageBackground: String? = nil) {
                self.primary = primary
                self.pageBackground = pageBackground
            }

            enum CodingKeys: String, CodingKey {
                case primary
                case pageBackground = "page_background"
            }

            /// `#rgb` or `#rrggbb`: the only color values stored, so one can go into a style sheet as it is.
            public static func isColor(_ text: String) -> Bool {
                let digits = text.utf8.dropFirst()
                return text.hasPrefix("#") && (digits.count == 3 || digits.count == 6)
                    && digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }
            }
        }

        enum CodingKeys: String, CodingKey {
            case logoURL = "logo_url"
            case colors
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, branding, metadata
        case displayName = "display_name"
    }

    /// Whether `name` is 1–50 of `[a-z0-9_-]` (SPEC §19).
    public static func isValidName(_ name: String) -> Bool {
        (1...50).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D
            }
    }

    /// The name the login page shows: `display_name`, else `name`.
    public var shownName: String { displayName ?? name }
}

/// A connection enabled for an organization (SPEC §19 `enabled_connections`).
public struct OrganizationConnection: Sendable, Hashable {
    public var organizationID: String
    public var connectionID: String
    /// A user signing in through it becomes a member.
    public var assignMembershipOnLogin: Bool
    /// The login page shows it as a button.
    public var showAsButton: Bool

    public init(organizationID: String, connectionID: String, assignMembershipOnLogin: Bool, showAsButton: Bool) {
        self.organizationID = organizationID
        self.connectionID = connectionID
        self.assignMembershipOnLogin = assignMembershipOnLogin
        self.showAsButton = showAsButton
    }
}

/// An invitation to join an organization (SPEC §19 `invitations`): single use, until `expiresAt`. The ticket is a
/// bearer secret: stored as its SHA-256 for lookup and, when `WARDEN_DATA_KEY` is set, sealed with it for the
/// Management API to show again (without it, only the answer to the creation shows the ticket).
public struct OrganizationInvitation: Codable, Sendable, Hashable {
    /// `uinv_` + 16 alphanumerics.
    public var id: String
    public var organizationID: String
    public var inviterName: String
    public var inviteeEmail: String
    public var clientID: String
    public var connectionID: String?
    public var roles: [String]
    public var appMetadata: JSONValue?
    public var userMetadata: JSONValue?
    /// SHA-256 (hex) of the ticket.
    public var ticketHash: String
    /// The ticket sealed with the data key (``DataKeySealer``), for `GET` to show.
    public var sealedTicket: String?
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        id: String, organizationID: String, inviterName: String, inviteeEmail: String, clientID: String,
        connectionID: String?, roles: [String], appMetadata: JSONValue?, userMetadata: JSONValue?,
        ticketHash: String, sealedTicket: String?, createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.organizationID = organizationID
        self.inviterName = inviterName
        self.inviteeEmail = inviteeEmail
        self.clientID = clientID
        self.connectionID = connectionID
        self.roles = roles
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
        self.ticketHash = ticketHash
        self.sealedTicket = sealedTicket
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id, roles
        case organizationID = "organization_id"
        case inviterName = "inviter_name"
        case inviteeEmail = "invitee_email"
        case clientID = "client_id"
        case connectionID = "connection_id"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case ticketHash = "ticket_hash"
        case sealedTicket = "sealed_ticket"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}

/// A client's `organization_usage` (SPEC §19): whether its logins may (`allow`), must (`require`) or may not
/// (`deny`, the default) name an organization.
public struct OrganizationUsage: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let deny: OrganizationUsage = "deny"
    public static let allow: OrganizationUsage = "allow"
    public static let require: OrganizationUsage = "require"
    public static let all: [OrganizationUsage] = [.deny, .allow, .require]
}

/// A client's `organization_require_behavior` (SPEC §19): what a `require` client's login without `organization`
/// does — refuse (`no_prompt`, the default), ask for the organization's name first (`pre_login_prompt`), or let the
/// user pick one of theirs after the login (`post_login_prompt`).
public struct OrganizationRequireBehavior: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let noPrompt: OrganizationRequireBehavior = "no_prompt"
    public static let preLoginPrompt: OrganizationRequireBehavior = "pre_login_prompt"
    public static let postLoginPrompt: OrganizationRequireBehavior = "post_login_prompt"
    public static let all: [OrganizationRequireBehavior] = [.noPrompt, .preLoginPrompt, .postLoginPrompt]
}
