import Foundation
import HTTPTypes
import Hummingbird
import WardenCore
import WardenWire

/// Where and how an authorization response is delivered: to the verified redirect URI, in its query
/// (RFC 6749 §4.1.2) or as an auto-submitting form (OAuth 2.0 Form Post Response Mode §2), with `state`.
struct AuthorizationResponseTarget: Sendable {
    /// The registered redirect URI (without fragment).
    var redirectURI: String
    var mode: AuthorizationRequest.ResponseMode
    var state: String?

    /// The response carrying `parameters` and `state`.
    func response(_ parameters: [(name: String, value: String)]) -> Response {
        let fields = parameters + (state.map { [(name: "state", value: $0)] } ?? [])
        switch mode {
        case .query:
            var location = redirectURI
            if !fields.isEmpty {
                location += redirectURI.contains("?") ? "&" : "?"
                location += fields.map {
                    PercentEncoding.unreserved($0.name) + "=" + PercentEncoding.unreserved($0.value)
                }.joined(separator: "&")
            }
            return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
        case .formPost:
            let page = FormPostPage(
                formAction: redirectURI, fields: fields.map { FormPostPage.Field(name: $0.name, value: $0.value) })
            return PageRenderer.shared.response(page)
        }
    }

    /// The error response (RFC 6749 §4.1.2.1): `error`, `error_description`, `state`.
    func response(_ error: OAuthError) -> Response {
        response([(name: "error", value: error.code.rawValue), (name: "error_description", value: error.description)])
    }

}

/// Why `/authorize` stopped before the person was asked anything.
enum AuthorizationFailure: Error {
    /// The client or its redirect URI is not trusted: shown as a page, never redirected (SPEC §5).
    case page(ErrorPage)
    /// Sent back to the verified redirect URI.
    case redirect(OAuthError, AuthorizationResponseTarget)

    var response: Response {
        switch self {
        case .page(let page): PageRenderer.shared.response(page)
        case .redirect(let error, let target): target.response(error)
        }
    }
}
