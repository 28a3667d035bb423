import Foundation
public import WardenWire

/// What the client asked for in the CIBA request behind a consent (SPEC §7.3 `requested_details`).
public struct ConsentRequestedDetails: Sendable, Hashable, Codable {
    /// The `audience` (API identifier) the client asked a token for, when given.
    public var audience: String?
    /// The scopes requested, filtered by the API's RBAC policy.
    public var scope: [String]
    /// The binding message to show, so the user can match this request with the consumption device.
    public var bindingMessage: String?
    /// The `authorization_details` (RFC 9396) of the request, as sent by the client; empty when none.
    public var authorizationDetails: [JSONValue]

    /// Creates requested details, mainly for previews and tests.
    public init(
        audience: String? = nil, scope: [String] = [], bindingMessage: String? = nil,
        authorizationDetails: [JSONValue] = []
    ) {
        self.audience = audience
        self.scope = scope
        self.bindingMessage = bindingMessage
        self.authorizationDetails = authorizationDetails
    }

    enum CodingKeys: String, CodingKey {
        case audience
        case scope
        case bindingMessage = "binding_message"
        case authorizationDetails = "authorization_details"
    }

    /// Decodes the SPEC §7.3 shape. `scope` may be an array or a space-separated string; absent members become
    /// empty values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        audience = try container.decodeIfPresent(String.self, forKey: .audience)
        if let list = try? container.decodeIfPresent([String].self, forKey: .scope) {
            scope = list
        } else if let string = try container.decodeIfPresent(String.self, forKey: .scope) {
            scope = string.split(separator: " ").map(String.init)
        } else {
            scope = []
        }
        bindingMessage = try container.decodeIfPresent(String.self, forKey: .bindingMessage)
        authorizationDetails = try container.decodeIfPresent([JSONValue].self, forKey: .authorizationDetails) ?? []
    }

    /// The `authorization_details` entries whose `type` is `T.type`, decoded as `T`.
    ///
    /// Entries of other types, and entries of this type that do not decode as `T`, are left out. Present every
    /// entry to the user regardless (SPEC §7.3; RFC 9396 §2).
    public func filterAuthorizationDetailsByType<T: AuthorizationDetailsType>(_ type: T.Type) -> [T] {
        AuthorizationDetails.decode(authorizationDetails, ofType: T.type, as: T.self)
    }

    /// The distinct `type` values of the `authorization_details`, in order of first appearance.
    public var authorizationDetailsTypes: [String] {
        var seen: Set<String> = []
        return authorizationDetails.compactMap { $0["type"]?.stringValue }.filter { seen.insert($0).inserted }
    }
}
