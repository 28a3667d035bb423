import WardenCore
import WardenWire

/// The admin console's pieces (SPEC §14), made at every start: the first-party public client `warden-console`
/// (PKCE, its callback and sign-out return under `{issuer}admin/`, kept in step with the issuer) and the role
/// `warden:admin` that lets a user in.
extension Bootstrap {
    /// The console's client id, fixed so that operators recognise it in logs and in the Management API.
    static let consoleClientID = "warden-console"
    /// The role a user needs to sign in to the console.
    static let adminRoleName = "warden:admin"

    /// The console client as this issuer needs it.
    static func consoleClient(issuer: String) -> Client {
        var client = Client(clientID: consoleClientID, name: "Warden Console")
        client.appType = .regularWeb
        client.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
        client.grantTypes = [.authorizationCode]
        client.callbacks = [issuer + "admin/callback"]
        client.allowedLogoutURLs = [issuer + "admin/"]
        client.clientMetadata = [marker.0: "console"]
        return client
    }

    /// Creates the console client and the admin role when missing, and adds this issuer's callback and sign-out
    /// return to the client when it lacks them (at every start of `warden serve`, which knows the issuer). Those of
    /// an earlier issuer stay until an operator removes them: nodes that share a database may name different
    /// issuers, and each must keep working — a code issued for another callback cannot be redeemed here anyway.
    func ensureConsole() async throws {
        let store = runtime.store
        let now = runtime.clock.now()
        let wanted = Self.consoleClient(issuer: runtime.issuer)
        if var existing = try await store.client(id: Self.consoleClientID) {
            let callbacks =
                existing.client.callbacks + wanted.callbacks.filter { !existing.client.callbacks.contains($0) }
            let logoutURLs =
                existing.client.allowedLogoutURLs
                + wanted.allowedLogoutURLs.filter { !existing.client.allowedLogoutURLs.contains($0) }
            if callbacks != existing.client.callbacks || logoutURLs != existing.client.allowedLogoutURLs {
                existing.client.callbacks = callbacks
                existing.client.allowedLogoutURLs = logoutURLs
                existing.updatedAt = now
                try await store.updateClient(existing)
            }
        } else {
            try await store.insertClient(ClientRecord(client: wanted, secretHash: nil, createdAt: now, updatedAt: now))
        }
        try await ensureAdminRole()
    }

    /// The `warden:admin` role, made when missing. The console client is left alone: a command-line run does not
    /// know the server's issuer.
    @discardableResult
    func ensureAdminRole() async throws -> Role {
        if let role = try await Self.adminRole(in: runtime.store) { return role }
        let role = Role(
            id: RandomToken.identifier(prefix: "rol_", length: 16), name: Self.adminRoleName,
            description: "Signs in to the Warden admin console")
        try await runtime.store.insertRole(role)
        return role
    }

    /// The `warden:admin` role, when it exists.
    static func adminRole(in roles: any RoleStore) async throws -> Role? {
        try await roles.roles(page: nil).items.first { $0.name == adminRoleName }
    }

    /// Gives `userID` the admin role (the demo's alice, `warden users create --admin`).
    public func makeAdmin(userID: String) async throws {
        let role = try await ensureAdminRole()
        guard try await !runtime.store.roles(ofUser: userID).contains(where: { $0.id == role.id }) else { return }
        try await runtime.store.assignRoles([role.id], toUser: userID)
    }
}

extension Bootstrap {
    /// A refused `warden users create`: what to change, in a sentence.
    public struct UserCreationError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `warden users create --email E --password-stdin [--admin]` (SPEC §14): a user of the one database
    /// connection, with the Management API's rules for the e-mail address (stored lower-cased) and the password (8
    /// to 72 bytes, bcrypt at the configured cost), and with `admin`, the `warden:admin` role.
    /// Returns the new user's id.
    public func createUser(email: String, password: String, admin: Bool) async throws -> String {
        guard EmailAddress.isValid(email) else {
            throw UserCreationError(description: "'\(email)' is not an e-mail address")
        }
        guard (8...72).contains(password.utf8.count) else {
            throw UserCreationError(description: "the password must be 8 to 72 bytes, got \(password.utf8.count)")
        }
        if try await runtime.store.user(email: email) != nil {
            throw UserCreationError(description: "a user with the e-mail address \(email.lowercased()) exists already")
        }
        let now = runtime.clock.now()
        let user = User(userID: User.generatedID(now: now), email: email.lowercased(), createdAt: now)
        try await runtime.store.insertUser(
            UserRecord(
                user: user,
                passwordHash: try await PasswordHashing.hash(password, cost: runtime.configuration.bcryptCost)))
        if admin { try await makeAdmin(userID: user.userID) }
        return user.userID
    }
}
