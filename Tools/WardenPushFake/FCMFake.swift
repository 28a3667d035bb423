import Crypto
import CryptoExtras
import Foundation
import NIOHTTP1

/// A stand-in for Google's OAuth 2.0 token endpoint (the JWT bearer grant of RFC 7523, as "Using OAuth 2.0 for
/// Server to Server Applications" uses it) and for FCM HTTP v1 `messages:send`, answering with the v1 error
/// bodies (`google.rpc.Status` with `FcmError` details).
struct FCMFake: Sendable {
    /// The service account the sender must prove it holds.
    struct ServiceAccount: Decodable, Sendable {
        var projectID: String
        var clientEmail: String
        var privateKey: String
        var tokenURI: String
        enum CodingKeys: String, CodingKey {
            case projectID = "project_id"
            case clientEmail = "client_email"
            case privateKey = "private_key"
            case tokenURI = "token_uri"
        }
    }

    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// Lifetime of an access token, as Google issues them.
    static let accessTokenLifetime = 3599

    var account: ServiceAccount
    /// The public half of the account's `private_key`, which assertions must verify against (RS256).
    var publicKey: _RSA.Signing.PublicKey
    /// Device tokens answered with 404 `UNREGISTERED`.
    var unregistered: Set<String>
    var record: FakeRecord

    /// A refusal: the status and the answer, and what exactly was wrong (for the rejected list).
    private struct Refusal: Error {
        var status: Int
        var reason: String
        var detail: String
        var response: FakeResponse

        init(status: Int, reason: String, detail: String, body: Any) {
            self.status = status
            self.reason = reason
            self.detail = detail
            response = .json(status, body)
        }
    }

    func respond(to request: FakeRequest) -> FakeResponse {
        do {
            if request.path == "/token" {
                return try token(request)
            }
            return try send(request)
        } catch {
            record.reject(
                .init(
                    provider: "fcm", path: request.path, status: error.status, reason: error.reason,
                    detail: error.detail))
            return error.response
        }
    }

    // MARK: - Token endpoint

    /// `POST /token`, form-encoded `grant_type` and `assertion` (RFC 7523 §2.1); the assertion is checked as
    /// RFC 7523 §3 requires.
    private func token(_ request: FakeRequest) throws(Refusal) -> FakeResponse {
        func oauthError(_ error: String, _ detail: String) -> Refusal {
            Refusal(status: 400, reason: error, detail: detail, body: ["error": error, "error_description": detail])
        }
        guard request.method == .POST else { throw oauthError("invalid_request", "not a POST") }
        guard request.header("content-type")?.hasPrefix("application/x-www-form-urlencoded") == true else {
            throw oauthError("invalid_request", "content-type \(request.header("content-type") ?? "none")")
        }
        let form = Self.formFields(String(decoding: request.body, as: UTF8.self))
        guard form["grant_type"] == Self.grantType else {
            throw oauthError("unsupported_grant_type", "grant_type \(form["grant_type"] ?? "none")")
        }
        guard let assertion = form["assertion"] else { throw oauthError("invalid_request", "no assertion") }
        let jwt: CompactJWT
        do {
            jwt = try CompactJWT(parsing: assertion)
        } catch {
            throw oauthError("invalid_grant", error.detail)
        }
        guard jwt.header["alg"] as? String == "RS256" else {
            throw oauthError("invalid_grant", "alg \(jwt.header["alg"] ?? "none")")
        }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jwt.signature)
        guard publicKey.isValidSignature(signature, for: jwt.signingInput, padding: .insecurePKCS1v1_5) else {
            throw oauthError("invalid_grant", "Invalid JWT Signature.")
        }
        guard jwt.claims["iss"] as? String == account.clientEmail else {
            throw oauthError("invalid_grant", "iss \(jwt.claims["iss"] ?? "none")")
        }
        guard jwt.claims["aud"] as? String == account.tokenURI else {
            throw oauthError("invalid_grant", "aud \(jwt.claims["aud"] ?? "none"), not \(account.tokenURI)")
        }
        let scopes = (jwt.claims["scope"] as? String)?.split(separator: " ").map(String.init) ?? []
        guard scopes.contains(Self.scope) else { throw oauthError("invalid_scope", "scope \(scopes)") }
        guard let issuedAt = jwt.date("iat"), let expiresAt = jwt.date("exp") else {
            throw oauthError("invalid_grant", "iat or exp missing")
        }
        let now = Date()
        guard issuedAt.timeIntervalSince(now) <= 60, expiresAt > now,
            expiresAt.timeIntervalSince(issuedAt) <= 3600
        else {
            throw oauthError("invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes)")
        }
        let accessToken = "ya29.fake-" + UUID().uuidString
        record.issueAccessToken(accessToken, expiresAt: now.addingTimeInterval(Double(Self.accessTokenLifetime)))
        return .json(
            200, ["access_token": accessToken, "expires_in": Self.accessTokenLifetime, "token_type": "Bearer"])
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    private static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    // MARK: - messages:send

    /// `POST /v1/projects/{project}/messages:send` with `Authorization: Bearer` (an access token of ``token``)
    /// and `{"message": {"token", "data": {string: string}, …}}`.
    private func send(_ request: FakeRequest) throws(Refusal) -> FakeResponse {
        let path = "/v1/projects/\(account.projectID)/messages:send"
        guard request.path == path else {
            throw Self.error(404, "NOT_FOUND", "no such resource: \(request.path), expected \(path)")
        }
        guard request.method == .POST else { throw Self.error(405, "METHOD_NOT_ALLOWED", "\(request.method)") }
        let authorization = request.header("authorization") ?? ""
        guard authorization.hasPrefix("Bearer "),
            record.isValidAccessToken(String(authorization.dropFirst("Bearer ".count)), now: Date())
        else {
            throw Self.error(
                401, "UNAUTHENTICATED",
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
                    + "other valid authentication credential.")
        }
        guard request.header("content-type")?.hasPrefix("application/json") == true else {
            throw Self.error(400, "INVALID_ARGUMENT", "content-type \(request.header("content-type") ?? "none")")
        }
        guard let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
            let message = body["message"] as? [String: Any]
        else { throw Self.invalidField("message", "Invalid JSON payload: no message object") }
        guard let token = message["token"] as? String, !token.isEmpty else {
            throw Self.invalidField("message.token", "The registration token is not a valid FCM registration token")
        }
        guard let data = message["data"] as? [String: Any] else {
            throw Self.invalidField("message.data", "no data object")
        }
        if let key = data.first(where: { !($0.value is String) })?.key {
            throw Self.invalidField("message.data[\(key)]", "Invalid value at 'message.data[\(key)]': not a string")
        }
        if let android = message["android"] as? [String: Any], let priority = android["priority"] as? String,
            !["high", "normal", "HIGH", "NORMAL"].contains(priority)
        {
            throw Self.invalidField("message.android.priority", "Invalid value: \(priority)")
        }
        if unregistered.contains(token) {
            throw Refusal(
                status: 404, reason: "UNREGISTERED", detail: token,
                body: Self.errorBody(404, "NOT_FOUND", "Requested entity was not found.", errorCode: "UNREGISTERED"))
        }
        record.accept(.init(provider: "fcm", token: token, headers: request.headerDictionary, body: request.body))
        return .json(200, ["name": "projects/\(account.projectID)/messages/0:\(UUID().uuidString)"])
    }

    /// A `google.rpc.Status` error.
    private static func error(_ code: Int, _ status: String, _ message: String) -> Refusal {
        Refusal(status: code, reason: status, detail: message, body: errorBody(code, status, message, errorCode: nil))
    }

    /// 400 `INVALID_ARGUMENT` with a `BadRequest` field violation.
    private static func invalidField(_ field: String, _ message: String) -> Refusal {
        var body = errorBody(400, "INVALID_ARGUMENT", message, errorCode: "INVALID_ARGUMENT")
        var error = body["error"] as? [String: Any] ?? [:]
        error["details"] =
            (error["details"] as? [Any] ?? []) + [
                [
                    "@type": "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations": [["field": field, "description": message]],
                ] as [String: Any]
            ]
        body["error"] = error
        return Refusal(status: 400, reason: "INVALID_ARGUMENT", detail: "\(field): \(message)", body: body)
    }

    /// `{"error": {"code", "message", "status", "details": [FcmError]}}`.
    private static func errorBody(_ code: Int, _ status: String, _ message: String, errorCode: String?)
        -> [String: Any]
    {
        var error: [String: Any] = ["code": code, "message": message, "status": status]
        if let errorCode {
            error["details"] = [
                ["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": errorCode]
            ]
        }
        return ["error": error]
    }
}
