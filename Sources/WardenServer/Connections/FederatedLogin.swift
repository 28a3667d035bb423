import Foundation
import Hummingbird
import Logging
import WardenCore
import WardenWire

/// Signing in through a connection (SPEC §15 "Sign-in", "Users"), shared by every strategy: sending the person to
/// the upstream with a state bound to the login and the browser, reading the callback through the connection's
/// ``OIDCUpstream``, and finding or creating the user its identity belongs to. Never merges users by e-mail.
struct FederatedLogin: Sendable {
    let connections: any ConnectionStore
    let users: any UserStore
    let states: UpstreamLoginStates
    let http: UpstreamHTTP
    let keySets: UpstreamKeySets
    /// Warden's signing keys, for `private_key_jwt` to upstreams.
    let keys: KeyManager
    let clock: any WardenClock
    /// `{issuer}login/callback`, and its path (the binding cookie's).
    let callbackURL: String
    let callbackPath: String
    let secureCookies: Bool
    /// Seals kept upstream tokens (`WARDEN_DATA_KEY`); `nil` without the key.
    let sealer: DataKeySealer?
    /// The upstream ID token of each federated SSO session, for `/oidc/logout?federated`.
    let sessions: UpstreamSessions
    /// The console's "Try" outcomes.
    let trials: ConnectionTrials
    /// The connections an organization's logins may use (SPEC §19): the node's ``TenantCache``.
    let organizations: any OrganizationDirectory

    init(
        connections: any ConnectionStore, users: any UserStore, artefacts: any ArtefactStore, http: UpstreamHTTP,
        keys: KeyManager, clock: any WardenClock, issuer: String, secureCookies: Bool, sealer: DataKeySealer?,
        organizations: any OrganizationDirectory
    ) {
        self.organizations = organizations
        self.keys = keys
        self.sealer = sealer
        self.sessions = UpstreamSessions(store: artefacts, clock: clock)
        self.trials = ConnectionTrials(store: artefacts, clock: clock)
        self.connections = connections
        self.users = users
        self.states = UpstreamLoginStates(store: artefacts, clock: clock)
        self.http = http
        self.keySets = UpstreamKeySets(http: http, clock: clock)
        self.clock = clock
        self.callbackURL = issuer + "login/callback"
        self.callbackPath = (URLComponents(string: issuer)?.path ?? "/") + "login/callback"
        self.secureCookies = secureCookies
    }

    /// The connection named by `/authorize?connection=` for `client`: an upstream connection enabled for it (and,
    /// in an organization's login, for the organization), or `nil` for the database connection; the 400 error page
    /// when it is unknown or not enabled (SPEC §15, §19).
    func upstreamConnection(
        named name: String, for client: Client, organizationID: String?
    ) async throws -> Connection? {
        guard let connection = try await connections.connection(name: name),
            try await usableConnections(for: client, organizationID: organizationID)
                .contains(where: { $0.connection.id == connection.id })
        else { throw ErrorPage.unknownConnection(name) }
        return connection.isDatabase ? nil : connection
    }

    /// The connections a login may use, each with whether the login page shows its button: those enabled for the
    /// client (SPEC §15: a button for each social one and each enterprise one with `show_as_button`) — in an
    /// organization's login, only those the organization enabled too, with its own `show_as_button` (SPEC §19).
    func usableConnections(
        for client: Client, organizationID: String?
    ) async throws -> [(connection: Connection, button: Bool)] {
        let enabled = try await connections.connections(enabledFor: client.clientID)
        guard let organizationID else {
            return enabled.map { ($0, !$0.isDatabase && ($0.strategy.isSocial || $0.showAsButton)) }
        }
        let forOrganization = Dictionary(
            try await organizations.organizationConnections(organizationID: organizationID).map {
                ($0.connectionID, $0.showAsButton)
            }, uniquingKeysWith: { first, _ in first })
        return enabled.compactMap { connection in
            forOrganization[connection.id].map { (connection, !connection.isDatabase && $0) }
        }
    }

    /// The login page's methods for `client` (SPEC §15) and, in an organization's login, the organization's look
    /// (SPEC §19): the password form and passkeys while the database
    /// connection is usable, a button per usable upstream connection that shows one, identifier-first when a usable
    /// enterprise connection has `domain_aliases` (only when the login answers an authorization request).
    func loginOptions(for client: Client, answering request: AuthorizationRequest?) async throws
        -> LoginPage.LoginOptions
    {
        guard let request else { return LoginPage.LoginOptions() }
        let usable = try await usableConnections(for: client, organizationID: request.organization)
        var options = LoginPage.LoginOptions()
        let database = usable.first(where: \.connection.isDatabase)?.connection
        options.password = database != nil || request.organization == nil
        // SPEC §15.1: the "Sign up" link while the database connection is enabled and `disable_signup` is off.
        options.signup = database.map { $0.options["disable_signup"]?.boolValue != true } ?? false
        if let database {
            let policy = PasskeyPolicy(options: database.options)
            if policy.enabled {
                options.passkey = .init(
                    button: policy.challengeUI != .autofill, autofill: policy.challengeUI != .button)
            }
        }
        for (connection, button) in usable where button {
            options.buttons.append(.init(name: connection.name, label: connection.displayName))
        }
        options.identifierFirst = usable.contains { !Self.domainAliases(of: $0.connection).isEmpty }
        if let id = request.organization, let organization = try await organizations.organization(id: id) {
            options.branding = PageBranding(organization)
        }
        return options
    }

    /// The usable connection (see ``usableConnections(for:organizationID:)``) whose `domain_aliases` hold the domain
    /// of `email` (exact, case-insensitive).
    func connection(forEmail email: String, client: Client, organizationID: String?) async throws -> Connection? {
        guard let at = email.lastIndex(of: "@") else { return nil }
        let domain = email[email.index(after: at)...].lowercased()
        return try await usableConnections(for: client, organizationID: organizationID).first { usable in
            !usable.connection.isDatabase && Self.domainAliases(of: usable.connection).contains(domain)
        }?.connection
    }

    private static func domainAliases(of connection: Connection) -> [String] {
        guard !connection.strategy.isSocial else { return [] }
        return (connection.options["domain_aliases"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() }
    }

    /// The redirect to `connection`'s upstream for the login transaction `transactionID` (none for the console's
    /// trial), with the binding cookie.
    func start(
        _ authorization: AuthorizationRequest, transactionID: String, connection: Connection, request: Request,
        purpose: UpstreamLoginState.Purpose? = nil
    ) async throws -> Response {
        let browser = UpstreamBindingCookie.value(in: request) ?? RandomToken.make()
        let upstream = try upstream(for: connection)
        let verifier = upstream.pkceMethod == nil ? nil : RandomToken.make()
        let state = UpstreamLoginState(
            transactionID: transactionID, connectionID: connection.id, browserHash: SecretHash.sha256Hex(browser),
            nonce: RandomToken.make(), codeVerifier: verifier, purpose: purpose)
        let id = try await states.start(state)
        var response = Response(
            status: .found,
            headers: [
                .location: upstream.authorizationURL(
                    state: id, nonce: state.nonce, verifier: verifier, request: authorization),
                .cacheControl: "no-store",
            ])
        response.setCookie(UpstreamBindingCookie.make(value: browser, path: callbackPath, secure: secureCookies))
        return response
    }

    /// The upstream of `connection`: OpenID Connect for `oidc` and `google-oauth2`, OAuth 2.0 for `oauth2` and
    /// `github`.
    func upstream(for connection: Connection) throws -> any Upstream {
        switch connection.strategy {
        case .oidc, .googleOAuth2:
            OIDCUpstream(
                connection: connection, http: http, keySets: keySets, keys: keys, clock: clock,
                callbackURL: callbackURL)
        case .oauth2, .github:
            OAuth2Upstream(connection: connection, http: http, callbackURL: callbackURL)
        default:
            throw ErrorPage.unknownConnection(connection.name)
        }
    }

    /// The user `identity` of `connection` belongs to (directly or linked, SPEC §15 "Linking"), its root
    /// attributes, profile and kept tokens written as the connection says; `nil` on the identity's first login.
    func existingUser(for identity: UpstreamUserProfile, of connection: Connection) async throws -> User? {
        guard
            var record = try await users.user(
                connectionID: connection.id, identityUserID: identity.userID.description)
        else { return nil }
        let stored = try storedIdentity(identity, of: connection)
        let changes = Self.rootAttributesUpdate(of: connection).changes(from: identity.profile, firstLogin: false)
        // Root attributes come from the identity that made the user, not from one linked to it later.
        if let attributes = changes.rootAttributes, record.user.userID == stored.identity.wardenUserID {
            Self.apply(attributes, to: &record.user)
            record.user.updatedAt = clock.now()
            try await users.updateUser(record)
        }
        if let profile = changes.profileData {
            var updated = stored
            updated.profileData = profile
            try await users.updateIdentityProfile(updated)
        }
        if let sealed = stored.sealedTokens {
            try await users.updateIdentityTokens(
                connectionID: connection.id, identityUserID: identity.userID.description, sealed: sealed)
        }
        return record.user
    }

    /// Makes the user of a first login through a connection (SPEC §15 "Users"): `stored` is its identity, and
    /// the user has no password and the root attributes the upstream gave.
    func newUser(_ stored: UserIdentity, attributes: FederatedRootAttributes) async throws -> User {
        var user = User(userID: stored.identity.wardenUserID, email: nil, createdAt: clock.now())
        Self.apply(attributes, to: &user)
        try await users.insertUser(UserRecord(user: user, passwordHash: nil), identity: stored)
        return user
    }

    /// The database user a first login could be linked to (SPEC §15 "Linking"): one whose verified e-mail is the
    /// verified e-mail the upstream brought, not blocked, with something to prove it by — a password or a linked
    /// connection. Never linked without that proof: `/u/link` asks for it.
    func linkCandidate(for identity: UpstreamUserProfile) async throws -> UserRecord? {
        let attributes = identity.profile.rootAttributes
        guard let email = attributes.email, attributes.emailVerified,
            let record = try await users.user(email: email),
            record.user.emailVerified, !record.user.blocked
        else { return nil }
        if record.passwordHash != nil { return record }
        let identities = try await users.identities(ofUsers: [record.user.userID])[record.user.userID] ?? []
        return identities.contains { $0.connectionID != Connection.databaseID } ? record : nil
    }

    /// The identity as stored: its profile, and its upstream tokens sealed when the connection keeps them
    /// (SPEC §15 "Upstream tokens").
    func storedIdentity(_ identity: UpstreamUserProfile, of connection: Connection) throws -> UserIdentity {
        let federated = FederatedIdentity(
            connection: connection.name, provider: connection.strategy, userID: identity.userID)
        var stored = UserIdentity(
            connectionID: connection.id, identity: federated, profileData: identity.profile.profileData)
        if connection.options["federated_connections_access_tokens"]?["active"] == .bool(true),
            let sealer, var tokens = identity.tokens
        {
            tokens.idToken = nil
            stored.sealedTokens = try sealer.seal(
                Array(try JSONEncoder().encode(tokens)),
                context: Self.tokenContext(connectionID: connection.id, identityUserID: identity.userID.description))
        }
        return stored
    }

    /// What a sealed token set is bound to: its identity.
    static func tokenContext(connectionID: String, identityUserID: String) -> String {
        "user_identities.tokens|\(connectionID)|\(identityUserID)"
    }

    private static func rootAttributesUpdate(of connection: Connection) -> UserRootAttributesUpdate {
        (try? UserRootAttributesUpdate(option: connection.options["set_user_root_attributes"])) ?? .onEachLogin
    }

    /// Writes the upstream's root attributes over `user`; `email_verified` is true only when the upstream said so.
    static func apply(_ attributes: FederatedRootAttributes, to user: inout User) {
        user.email = attributes.email?.lowercased()
        user.emailVerified = attributes.email != nil && attributes.emailVerified
        user.name = attributes.name
        user.givenName = attributes.givenName
        user.familyName = attributes.familyName
        user.nickname = attributes.nickname
        user.picture = attributes.picture
    }
}
