import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The account tickets and the verification e-mail job of the Management API (SPEC §15.1):
/// `POST /tickets/email-verification` and `POST /tickets/password-change` → 201 `{"ticket"}`
/// (`create:user_tickets`); `POST /jobs/verification-email` → 201, the job, which `GET /jobs/{id}` shows
/// (`update:users`). Tickets are links the operator hands over; only the job sends an e-mail.
struct TicketsController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }
    var accounts: AccountService { runtime.accountService }

    /// The reference platform's members Warden accepts and does not use (organizations and identities of
    /// linked accounts have no tickets of their own here).
    static let ignored: Set<String> = ["organization_id", "include_email_in_redirect", "identity"]

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.post("tickets/email-verification") { request, context in
            try await audit.change(
                "Create an email verification ticket", scope: "create:user_tickets", request, context
            ) {
                try await verificationTicket(try await ManagementRequest.object(request))
            }
        }
        group.post("tickets/password-change") { request, context in
            try await audit.change(
                "Create a password change ticket", scope: "create:user_tickets", request, context
            ) {
                try await passwordChangeTicket(try await ManagementRequest.object(request))
            }
        }
        group.post("jobs/verification-email") { request, context in
            try await audit.change("Send a verification email", scope: "update:users", request, context) {
                try await verificationJob(try await ManagementRequest.object(request))
            }
        }
    }

    /// `{"user_id", "result_url"?, "ttl_sec"?, "client_id"?}`.
    func verificationTicket(_ members: [String: JSONValue]) async throws -> Response {
        let body = try ManagementBody(
            checking: members, allowed: Self.ignored.union(["user_id", "result_url", "ttl_sec", "client_id"]))
        let record = try await user(try body.requiredString("user_id"))
        let link = try await accounts.verificationTicket(
            for: record.user, resultURL: try body.url("result_url"), lifetime: try lifetime(body),
            clientID: try await client(body)?.clientID)
        return Response.json(["ticket": .string(link)], status: .created)
    }

    /// `{"user_id" | "email" + "connection_id", "result_url"?, "ttl_sec"?, "mark_email_as_verified"?,
    /// "client_id"?}` (both ways of naming the user → 400).
    func passwordChangeTicket(_ members: [String: JSONValue]) async throws -> Response {
        let body = try ManagementBody(
            checking: members,
            allowed: Self.ignored.union([
                "user_id", "email", "connection_id", "result_url", "ttl_sec", "mark_email_as_verified", "client_id",
            ]))
        let record: UserRecord
        switch (try body.string("user_id"), try body.string("email")) {
        case (let userID?, nil):
            guard !body.has("connection_id") else {
                throw body.invalid("connection_id", "connection_id goes with email, not with user_id")
            }
            record = try await user(userID)
        case (nil, let email?):
            guard try body.requiredString("connection_id") == Connection.databaseID else {
                throw body.invalid("connection_id", "Must be the id of the database connection")
            }
            guard let found = try await runtime.store.user(email: email) else { throw UsersController.notFound }
            record = found
        case (.some, .some):
            throw ManagementError.invalidBody(
                "Payload validation error: give user_id, or email with connection_id, not both.")
        case (nil, nil):
            throw ManagementError.invalidBody(
                "Payload validation error: user_id, or email with connection_id, is required.")
        }
        guard record.user.userID.hasPrefix("auth0|") else {
            throw body.invalid("user_id", "A user of another connection has no password (SPEC §15)")
        }
        let link = try await accounts.passwordResetTicket(
            for: record.user, resultURL: try body.url("result_url"), lifetime: try lifetime(body),
            markEmailVerified: try body.bool("mark_email_as_verified") ?? false,
            clientID: try await client(body)?.clientID)
        return Response.json(["ticket": .string(link)], status: .created)
    }

    /// `{"user_id", "client_id"?}` → 201 `{"id": "job_…", "type": "verification_email", "status": "pending",
    /// "created_at"}`; the e-mail is queued at once and the job completes when it is.
    func verificationJob(_ members: [String: JSONValue]) async throws -> Response {
        let body = try ManagementBody(checking: members, allowed: Self.ignored.union(["user_id", "client_id"]))
        let record = try await user(try body.requiredString("user_id"))
        guard record.user.email != nil else { throw body.invalid("user_id", "The user has no e-mail address") }
        let client = try await client(body)
        var job = UserJob(type: .verificationEmail, connectionID: Connection.databaseID, createdAt: runtime.clock.now())
        try await runtime.store.insertUserJob(job)
        let pending = job
        try await accounts.sendVerificationEmail(
            to: record.user, caller: AccountService.Caller(clientID: client?.clientID, clientName: client?.name))
        job.status = .completed
        job.updatedAt = runtime.clock.now()
        try await runtime.store.updateUserJob(job)
        return Response.json(UserJobRepresentation.job(pending, issuer: runtime.issuer), status: .created)
    }

    private func user(_ id: String) async throws -> UserRecord {
        guard let record = try await runtime.store.user(id: id) else { throw UsersController.notFound }
        return record
    }

    /// `ttl_sec`: 1 to 2,592,000 seconds; 0 or absent is the default lifetime.
    private func lifetime(_ body: ManagementBody) throws -> Int? {
        let seconds = try body.integer("ttl_sec", in: 0...AccountService.maximumTicketLifetime)
        return seconds == 0 ? nil : seconds
    }

    /// `client_id`, which must name a client.
    private func client(_ body: ManagementBody) async throws -> Client? {
        guard let id = try body.string("client_id") else { return nil }
        guard let record = try await runtime.cache.client(id: id) else {
            throw body.invalid("client_id", "The client does not exist")
        }
        return record.client
    }
}
