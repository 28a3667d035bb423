import Foundation
import WardenCore
import WardenWire

/// RFC 8707 resource indicators (SPEC §5): `resource` is a synonym of `audience`, accepted wherever `audience`
/// is (`/authorize`, `/oauth/token`, `/bc-authorize`). It names one registered API by an absolute URI without
/// a fragment (RFC 8707 §2). Both given and different, more than one `resource`, or one that names no API →
/// `invalid_target`; `resource` is the one parameter that may repeat, so a repeat is `invalid_target`, never
/// the duplicate-parameter `invalid_request`.
struct ResourceIndicator: Sendable, Equatable {
    /// The API identifier asked for.
    let identifier: String
    /// Whether it came as `resource` (its errors are `invalid_target`) rather than `audience`.
    let isResource: Bool

    /// What `audience` and `resource` ask for together, `nil` when neither was sent.
    static func requested(
        audience: String?, resource: String?, resourceRepeated: Bool
    ) throws(OAuthError) -> ResourceIndicator? {
        if resourceRepeated { throw OAuthError(.invalidTarget, "Only one resource may be requested") }
        guard let resource else { return audience.map { ResourceIndicator(identifier: $0, isResource: false) } }
        guard let url = URL(string: resource), url.scheme != nil, url.fragment == nil else {
            throw OAuthError(.invalidTarget, "resource must be an absolute URI without a fragment (RFC 8707 §2)")
        }
        if let audience, audience != resource {
            throw OAuthError(.invalidTarget, "audience and resource name different APIs")
        }
        return ResourceIndicator(identifier: resource, isResource: true)
    }

    /// The indicator of an Authentication API body: repeats of `resource` are kept aside by
    /// ``RequestParameters``.
    static func requested(_ parameters: RequestParameters) throws(OAuthError) -> ResourceIndicator? {
        try requested(
            audience: parameters["audience"], resource: parameters["resource"],
            resourceRepeated: parameters.resourceRepeated)
    }

    /// The registered API named, or `nil` when `audience` names none (each caller has its own error for that);
    /// a `resource` that names none is `invalid_target`. `allowingSystem: false` treats the Management API as
    /// unknown (it is not for user-facing flows).
    func registeredAPI(in cache: TenantCache, allowingSystem: Bool) async throws -> ResourceServer? {
        if let api = try await cache.resourceServer(identifier: identifier), allowingSystem || !api.isSystem {
            return api
        }
        if isResource { throw OAuthError(.invalidTarget, "Unknown resource: \(identifier)") }
        return nil
    }

    /// The API of a user-facing flow (`/authorize`, `/bc-authorize`): a registered API that is not the system
    /// Management API; an unknown `audience` is `invalid_request`, an unknown `resource` `invalid_target`.
    static func userFacingAPI(
        _ requested: ResourceIndicator?, in cache: TenantCache
    ) async throws -> ResourceServer? {
        guard let requested else { return nil }
        guard let api = try await requested.registeredAPI(in: cache, allowingSystem: false) else {
            throw OAuthError.invalidRequest("Unknown audience: \(requested.identifier)")
        }
        return api
    }
}
