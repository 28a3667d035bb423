import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `/api/v2/users`, `/api/v2/users-by-email` and `/api/v2/users/{id}/roles` (SPEC §9): the users of the one
/// database connection, their search (`q`, `search_engine=v3`) and their roles.
struct UsersController {
    let runtime: WardenRuntime
    var audit: ManagementAudit { ManagementAudit(runtime: runtime) }

    static let profileProperties: Set<String> = [
        "email", "email_verified", "password", "name", "given_name", "family_name", "nickname", "picture",
        "user_metadata", "app_metadata", "blocked", "connection",
    ]
    /// Create may also choose the `user_id`, and ask for a verification e-mail (`verify_email`, SPEC §15.1);
    /// PATCH may not.
    static let createProperties = profileProperties.union(["user_id", "verify_email"])

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("users") { request, context in
            try context.requireScope("read:users")
            return try await search(request)
        }
        group.post("users") { request, context in
            try await audit.change("Create a User", scope: "create:users", request, context) {
                let user = try await create(try await ManagementRequest.object(request))
                return Response.json(Self.representation(user), status: .created)
            }
        }
        group.get("users-by-email") { request, context in
            try context.requireScope("read:users")
            guard let email = ManagementRequest.query(request)["email"], !email.isEmpty else {
                throw ManagementError.invalidQuery("Query validation error: 'email' is required")
            }
            let records = try await runtime.store.users(email: email)
            return Response.json(.array(try await representations(records.map(\.user))))
        }
        group.get("users/:id") { _, context in
            try context.requireScope("read:users")
            return Response.json(try await representation(try await record(context).user, context))
        }
        group.patch("users/:id") { request, context in
            try await audit.change("Update a User", scope: "update:users", request, context) {
                var record = try await record(context)
                try await update(&record, with: try await ManagementRequest.object(request))
                return Response.json(try await representation(record.user))
            }
        }
        group.delete("users/:id") { request, context in
            try await audit.change("Delete a User", scope: "delete:users", request, context) {
                let id = try ManagementRequest.parameter("id", of: context)
                guard try await runtime.store.deleteUser(id: id) else { throw Self.notFound }
                return ManagementResponse.noContent
            }
        }
        addRoleRoutes(to: group)
        addIdentityRoutes(to: group)
        addAuthenticationMethodRoutes(to: group)
    }

    /// `GET|POST|DELETE /users/{id}/roles` with `{"roles": [ids]}` (changes need `update:users`).
    private func addRoleRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("users/:id/roles") { request, context in
            try context.requireScope("read:users")
            let (page, totals) = try ManagementRequest.paging(request)
            let user = try await record(context).user
            let roles = try await runtime.store.roles(ofUser: user.userID)
            return ManagementResponse.list(
                all: try roles.map { try ManagementResponse.object(of: $0) }, page: page,
                includeTotals: totals, name: "roles")
        }
        group.post("users/:id/roles") { request, context in
            try await audit.change("Assign roles to a user", scope: "update:users", request, context) {
                let user = try await record(context).user
                try await runtime.store.assignRoles(
                    try await roleIDs(try await ManagementRequest.object(request)), toUser: user.userID)
                return Response(status: .created)
            }
        }
        group.delete("users/:id/roles") { request, context in
            try await audit.change("Remove roles from a user", scope: "update:users", request, context) {
                let user = try await record(context).user
                try await runtime.store.removeRoles(
                    try await roleIDs(try await ManagementRequest.object(request)), fromUser: user.userID)
                return ManagementResponse.noContent
            }
        }
    }

    static let notFound = ManagementError.notFound("user", "The user does not exist.")

    func record(_ context: WardenRequestContext) async throws -> UserRecord {
        let id = try ManagementRequest.parameter("id", of: context)
        guard let record = try await runtime.store.user(id: id) else { throw Self.notFound }
        return record
    }

    /// `GET /users?q=&search_engine=v3&page=&per_page=&include_totals=&sort=field:1|-1`.
    private func search(_ request: Request) async throws -> Response {
        let parameters = ManagementRequest.query(request)
        let (page, totals) = try ManagementRequest.paging(request)
        if let engine = parameters["search_engine"], !engine.isEmpty, engine != "v3" {
            throw ManagementError.invalidQuery("Query validation error: 'search_engine' must be v3")
        }
        let query = try Self.query(parameters["q"] ?? "")
        let sort = try ManagementRequest.sort(request, fields: Set(UserSort.Field.allCases.map(\.rawValue))).map {
            UserSort(field: UserSort.Field(rawValue: $0.field)!, ascending: $0.ascending)
        }
        let result = try await runtime.store.searchUsers(query, sort: sort, page: page)
        return ManagementResponse.list(
            try await representations(result.items.map(\.user)), total: result.total, page: page,
            includeTotals: totals, name: "users")
    }

    /// The v3 query `q` (SPEC §9), or 400 `invalid_query_string` with the parser's message; the console's user
    /// search reads its box with it too (SPEC §14).
    static func query(_ text: String) throws -> UserQuery {
        do {
            return try UserQueryParser.parse(text)
        } catch {
            throw ManagementError.invalidQuery(error.message)
        }
    }

    /// Validates `members` as the body of `POST /users` and stores the user it describes; shared by the
    /// Management API and the console (SPEC §14).
    func create(_ members: [String: JSONValue]) async throws -> User {
        let body = try ManagementBody(checking: members, allowed: Self.createProperties)
        let userID = try body.string("user_id").map { given in
            guard !given.isEmpty, given.count <= 255, !given.contains(where: \.isWhitespace) else {
                throw body.invalid("user_id", "Expected 1 to 255 characters without spaces")
            }
            guard given.hasPrefix("auth0|") || !given.contains("|") else {
                throw body.invalid("user_id", "A database user's id is auth0| and an id without |")
            }
            return given.hasPrefix("auth0|") ? given : "auth0|" + given
        }
        _ = try body.requiredString("email")
        let now = runtime.clock.now()
        var record = UserRecord(
            user: User(userID: userID ?? User.generatedID(now: now), email: nil, createdAt: now), passwordHash: nil)
        try await apply(body, to: &record)
        try await ManagementRequest.write("user", conflict: "The user already exists.") {
            try await runtime.store.insertUser(record)
        }
        let accounts = runtime.accountService
        if let hash = record.passwordHash { try await accounts.remember(hash, of: record.user.userID) }
        if try body.bool("verify_email") == true {
            try await accounts.sendVerificationEmail(to: record.user, caller: AccountService.Caller())
        }
        return record.user
    }

    /// Validates `members` as the body of `PATCH /users/{id}` and stores `record` with its changes; shared by
    /// the Management API and the console (SPEC §14).
    func update(_ record: inout UserRecord, with members: [String: JSONValue]) async throws {
        let body = try ManagementBody(checking: members, allowed: Self.profileProperties)
        let previousHash = record.passwordHash
        try await apply(body, to: &record)
        record.user.updatedAt = runtime.clock.now()
        let changed = record
        try await ManagementRequest.write("user", conflict: "The specified new email already exists") {
            try await runtime.store.updateUser(changed)
        }
        if let hash = changed.passwordHash, hash != previousHash {
            try await runtime.accountService.remember(hash, of: changed.user.userID)
        }
    }

    /// Sets every property the body carries (SPEC §9). Metadata objects are merged one level deep, as the
    /// vendor does: a `null` member removes that key, `{}` or `null` clears the whole object.
    private func apply(_ body: ManagementBody, to record: inout UserRecord) async throws {
        if let connection = try body.string("connection"), connection != Connection.databaseName {
            throw body.invalid("connection", "The only connection is \(Connection.databaseName)")
        }
        if body.has("email") { record.user.email = try Self.email(body) }
        if body.has("email_verified") { record.user.emailVerified = try body.bool("email_verified") ?? false }
        if body.has("name") { record.user.name = try body.string("name") }
        if body.has("given_name") { record.user.givenName = try body.string("given_name") }
        if body.has("family_name") { record.user.familyName = try body.string("family_name") }
        if body.has("nickname") { record.user.nickname = try body.string("nickname") }
        if body.has("picture") { record.user.picture = try body.url("picture") }
        if body.has("user_metadata") {
            record.user.userMetadata = Self.merge(record.user.userMetadata, try body.jsonObject("user_metadata"))
        }
        if body.has("app_metadata") {
            record.user.appMetadata = Self.merge(record.user.appMetadata, try body.jsonObject("app_metadata"))
        }
        if body.has("blocked") { record.user.blocked = try body.bool("blocked") ?? false }
        // Last, so that the personal-information rule sees the name and e-mail the user will have.
        if body.has("password") {
            guard record.user.userID.hasPrefix("auth0|") else {
                throw body.invalid("password", "A user of another connection has no password (SPEC §15)")
            }
            record.passwordHash = try await password(body, for: record)
        }
    }

    /// A required e-mail address (``EmailAddress``: the OpenAPI `format: email`), lower-cased as the vendor stores
    /// it; on create and on PATCH alike.
    private static func email(_ body: ManagementBody) throws -> String {
        let email = try body.requiredString("email")
        guard EmailAddress.isValid(email) else { throw body.invalid("email", "Not an e-mail address") }
        return email.lowercased()
    }

    /// The bcrypt hash of `password`, or `nil` for `null`. The database connection's password policy and history
    /// apply (SPEC §15.1, one check shared with sign-up and reset): a refusal is 400 `invalid_body` whose message
    /// starts with the error's name ("PasswordStrengthError: Password is too weak").
    private func password(_ body: ManagementBody, for record: UserRecord) async throws -> String? {
        guard let password = try body.string("password") else { return nil }
        let accounts = runtime.accountService
        if let violation = try await accounts.violation(
            of: password, for: record.user, currentHash: record.passwordHash,
            policy: try await accounts.settings().policy)
        {
            throw ManagementError.invalidBody(violation.description)
        }
        return try await accounts.hash(password)
    }

    private static func merge(_ current: [String: JSONValue], _ patch: [String: JSONValue]?) -> [String: JSONValue] {
        guard let patch, !patch.isEmpty else { return [:] }
        return current.merging(patch) { _, new in new }.filter { $0.value != .null }
    }

    /// The `{"roles": [ids]}` body; every role must exist. The console's role forms send it too (SPEC §14).
    func roleIDs(_ members: [String: JSONValue]) async throws -> [String] {
        let body = try ManagementBody(checking: members, allowed: ["roles"])
        guard let ids = try body.strings("roles"), !ids.isEmpty else {
            throw body.invalid("roles", "Expected a non-empty array of role ids")
        }
        for id in ids where try await runtime.store.role(id: id) == nil {
            throw body.invalid("roles", "The role \(id) does not exist")
        }
        return ids
    }

    /// The user as the vendor's Management API shows it (never the password hash), with `identities` (SPEC §15
    /// "Users"): a database user's own identity first, then the stored ones.
    static func representation(_ user: User, identities: [UserIdentity] = []) -> JSONValue {
        var entries: [JSONValue] = []
        if user.userID.hasPrefix("auth0|") { entries.append(FederatedIdentity(databaseUserID: user.userID).jsonValue) }
        entries += identities.map(\.jsonValue)
        var members: [String: JSONValue] = [
            "user_id": .string(user.userID),
            "email_verified": .bool(user.emailVerified),
            "user_metadata": .object(user.userMetadata),
            "app_metadata": .object(user.appMetadata),
            "blocked": .bool(user.blocked),
            "created_at": ManagementResponse.timestamp(user.createdAt),
            "updated_at": ManagementResponse.timestamp(user.updatedAt),
            "logins_count": .number(Double(user.loginsCount)),
            "identities": .array(entries),
        ]
        let optional = [
            ("email", user.email), ("name", user.name), ("given_name", user.givenName),
            ("family_name", user.familyName), ("nickname", user.nickname), ("picture", user.picture),
        ]
        for case (let key, let value?) in optional { members[key] = .string(value) }
        if let lastLogin = user.lastLogin { members["last_login"] = ManagementResponse.timestamp(lastLogin) }
        return .object(members)
    }

    /// The users as ``representation(_:identities:)`` shows them, their identities read in one query (with the
    /// upstream tokens when `context`'s token holds `read:user_idp_tokens`).
    func representations(_ users: [User], _ context: WardenRequestContext? = nil) async throws -> [JSONValue] {
        let identities = try await runtime.store.identities(ofUsers: users.map(\.userID))
        return users.map { user in
            let stored = identities[user.userID] ?? []
            return Self.representation(user, identities: context.map { revealingTokens(stored, $0) } ?? stored)
        }
    }

    /// One user as ``representations(_:_:)`` shows it.
    func representation(_ user: User, _ context: WardenRequestContext? = nil) async throws -> JSONValue {
        try await representations([user], context)[0]
    }
}
