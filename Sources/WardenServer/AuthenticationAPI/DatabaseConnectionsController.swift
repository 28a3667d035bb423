import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WardenCore
import WardenWire

/// `POST /dbconnections/signup` and `POST /dbconnections/change_password` (SPEC §15.1): the reference platform's
/// Authentication API for the database connection, JSON or form bodies. Errors carry both shapes that vendor's
/// SDKs read: `{"error", "error_description", "name", "code", "description", "statusCode"}`.
struct DatabaseConnectionsController: Sendable {
    let accounts: AccountService
    let tenant: TenantCache
    let trustedProxies: [CIDR]

    /// The one answer of a reset request, whatever the address (SPEC §15.1: no user enumeration).
    static let resetAnswer = "If that address has an account, we sent a link to reset its password."

    func addRoutes(to router: Router<WardenRequestContext>) {
        router.post("dbconnections/signup") { request, context in
            try await Self.answering { try await signUp(request, context: context) }
        }
        router.post("dbconnections/change_password") { request, context in
            try await Self.answering { try await changePassword(request, context: context) }
        }
    }

    /// `{"client_id", "email", "password", "connection", "name"?, "given_name"?, "family_name"?, "nickname"?,
    /// "picture"?, "user_metadata"?}` → 200 `{"_id", "email", "email_verified": false, …}`.
    func signUp(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        let caller = try await caller(parameters, request, context)
        guard let email = parameters["email"], let password = parameters["password"] else {
            throw DatabaseConnectionError(.badRequest, "invalid_request", "email and password are required")
        }
        var metadata: [String: JSONValue] = [:]
        if let text = parameters["user_metadata"] {
            guard case .object(let object)? = try? JSONValue(parsing: Array(text.utf8)) else {
                throw DatabaseConnectionError(.badRequest, "invalid_request", "user_metadata must be an object")
            }
            metadata = object
        }
        let signUp = AccountService.SignUp(
            email: email, password: password, name: parameters["name"], givenName: parameters["given_name"],
            familyName: parameters["family_name"], nickname: parameters["nickname"],
            picture: parameters["picture"], userMetadata: metadata)
        let record: UserRecord
        do {
            record = try await accounts.signUp(signUp, from: caller)
        } catch let refusal as AccountService.SignUpRefusal {
            throw DatabaseConnectionError(refusal)
        }
        let user = record.user
        var body: [String: JSONValue] = [
            "_id": .string(String(user.userID.dropFirst("auth0|".count))), "email": .string(user.email ?? email),
            "email_verified": .bool(user.emailVerified),
        ]
        let optional = [
            ("name", user.name), ("given_name", user.givenName), ("family_name", user.familyName),
            ("nickname", user.nickname), ("picture", user.picture),
        ]
        for case (let key, let value?) in optional { body[key] = .string(value) }
        if !user.userMetadata.isEmpty { body["user_metadata"] = .object(user.userMetadata) }
        return Response.json(.object(body), noStore: true)
    }

    /// `{"client_id", "email", "connection"}` → 200 `text/plain`, the same sentence whatever the address.
    func changePassword(_ request: Request, context: WardenRequestContext) async throws -> Response {
        let parameters = try await RequestParameters.read(from: request)
        let caller = try await caller(parameters, request, context)
        guard let email = parameters["email"] else {
            throw DatabaseConnectionError(.badRequest, "invalid_request", "email is required")
        }
        if case .tooMany(let retryAfter) = try await accounts.requestPasswordReset(email: email, caller: caller) {
            throw DatabaseConnectionError.tooMany(retryAfter: retryAfter)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: Self.resetAnswer)))
    }

    /// The calling application (`client_id`, which must exist and have the database connection enabled) and
    /// `connection`, which must name the database connection.
    private func caller(
        _ parameters: RequestParameters, _ request: Request, _ context: WardenRequestContext
    ) async throws -> AccountService.Caller {
        guard let clientID = parameters["client_id"], let client = try await tenant.client(id: clientID)?.client
        else { throw DatabaseConnectionError(.badRequest, "invalid_request", "Unknown client_id") }
        guard parameters["connection"] == Connection.databaseName,
            try await accounts.isDatabaseEnabled(for: client.clientID)
        else {
            throw DatabaseConnectionError(
                .badRequest, "invalid_request", "The connection is not a database connection enabled for the client")
        }
        return AccountService.Caller(
            client: client, request: request, context: context, trustedProxies: trustedProxies)
    }

    /// Runs a handler, answering its refusals (and unreadable bodies) in the `/dbconnections` shape; anything
    /// else goes to the error middleware (a database that is down: 503).
    private static func answering(_ handler: () async throws -> Response) async throws -> Response {
        do {
            return try await handler()
        } catch let error as DatabaseConnectionError {
            return error.response
        } catch let error as OAuthError {
            return DatabaseConnectionError(
                HTTPResponse.Status(code: error.statusCode), error.code.rawValue, error.description
            ).response
        }
    }
}

/// A refusal at `/dbconnections/*` (SPEC §15.1), in both shapes the vendor's SDKs read.
struct DatabaseConnectionError: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// `description` when it is not the message: a password refusal's `{"rules", "verified"}`.
    var description: JSONValue?
    /// `name` (the reference's error class, e.g. `PasswordStrengthError`), and `policy` for a password refusal.
    var name: String?
    var policy: String?
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func tooMany(retryAfter: Int) -> DatabaseConnectionError {
        var error = DatabaseConnectionError(
            .tooManyRequests, "too_many_requests", "Too many requests. Try again later.")
        error.retryAfter = retryAfter
        return error
    }

    /// A sign-up refusal as the reference platform answers it.
    init(_ refusal: AccountService.SignUpRefusal) {
        switch refusal {
        case .disabled:
            self.init(.badRequest, "signup_disabled", "Sign up is disabled for this connection")
        case .tooMany(let retryAfter):
            self = .tooMany(retryAfter: retryAfter)
        case .invalidEmail:
            self.init(.badRequest, "invalid_signup", "Invalid sign up")
        case .invalidSignup:
            self.init(.badRequest, "invalid_signup", "Invalid sign up")
        case .invalidPassword(let violation):
            self.init(.badRequest, "invalid_password", violation.message)
            name = violation.name.rawValue
            description = violation.ruleReport
            policy = violation.policyText
        }
    }

    var response: Response {
        var body: [String: JSONValue] = [
            "error": .string(code), "error_description": .string(message), "code": .string(code),
            "name": .string(name ?? (status == .tooManyRequests ? "TooManyRequestsError" : "BadRequestError")),
            "description": description ?? .string(message), "statusCode": .number(Double(status.code)),
        ]
        if description != nil { body["message"] = .string(message) }
        if let policy { body["policy"] = .string(policy) }
        var response = Response.json(.object(body), status: status, noStore: true)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
