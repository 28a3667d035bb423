import Hummingbird

/// An OAuth-style error answer of the resource server: `{"error", "error_description"}` with `Cache-Control:
/// no-store`, and, for the errors of the bearer token, the `WWW-Authenticate: Bearer` challenge of RFC 6750 §3.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let error: String
    let errorDescription: String
    /// The challenge's parameters after `realm` (RFC 6750 §3: `error`, `error_description`, `scope`); `nil` for an
    /// error that is not about the token.
    let challenge: [(String, String)]?
    let realm: String

    private struct Body: Encodable {
        let error: String
        let errorDescription: String

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(
            Body(error: error, errorDescription: errorDescription), from: request, context: context)
        response.status = status
        response.headers[.cacheControl] = "no-store"
        if let challenge {
            let parameters = [("realm", realm)] + challenge
            response.headers[.wwwAuthenticate] =
                "Bearer " + parameters.map { "\($0.0)=\"\(Self.quotable($0.1))\"" }.joined(separator: ", ")
        }
        return response
    }

    /// `value` as a quoted-string's content: RFC 6750 §3 allows neither `"` nor `\` in these parameters.
    private static func quotable(_ value: String) -> String {
        String(value.map { $0 == "\"" || $0 == "\\" ? "'" : $0 })
    }
}

extension APIError {
    /// RFC 6750 §3.1: a request without a token gets the bare challenge, no error code in it.
    static func missingToken(realm: String) -> APIError {
        APIError(
            status: .unauthorized, error: "invalid_token", errorDescription: "Missing access token", challenge: [],
            realm: realm)
    }

    /// RFC 6750 §3.1 `invalid_request`: an `Authorization` header that is not `Bearer <token>`.
    static func malformedAuthorization(realm: String) -> APIError {
        APIError(
            status: .badRequest, error: "invalid_request",
            errorDescription: "The Authorization header must be \"Bearer <access token>\"",
            challenge: [("error", "invalid_request")], realm: realm)
    }

    /// RFC 6750 §3.1 `invalid_token`: expired, not signed by the issuer, or for another audience.
    static func invalidToken(_ description: String, realm: String) -> APIError {
        APIError(
            status: .unauthorized, error: "invalid_token", errorDescription: description,
            challenge: [("error", "invalid_token"), ("error_description", description)], realm: realm)
    }

    /// RFC 6750 §3.1 `insufficient_scope`, naming the scope the request needs.
    static func insufficientScope(_ scope: String, realm: String) -> APIError {
        APIError(
            status: .forbidden, error: "insufficient_scope",
            errorDescription: "This request needs the scope \(scope)",
            challenge: [("error", "insufficient_scope"), ("scope", scope)], realm: realm)
    }

    /// The token's `authorization_details` (RFC 9396 §9) do not cover what the request asks for.
    static func insufficientAuthorizationDetails(_ description: String, realm: String) -> APIError {
        APIError(
            status: .forbidden, error: "insufficient_authorization_details", errorDescription: description,
            challenge: [("error", "insufficient_authorization_details"), ("error_description", description)],
            realm: realm)
    }

    /// A body that is not the JSON the endpoint takes.
    static func invalidBody(_ description: String, realm: String) -> APIError {
        APIError(
            status: .badRequest, error: "invalid_request", errorDescription: description, challenge: nil,
            realm: realm)
    }
}
