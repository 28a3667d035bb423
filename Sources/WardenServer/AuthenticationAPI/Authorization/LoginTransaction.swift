import Foundation
import WardenCore
import WardenWire

/// A front-channel request waiting for the person (SPEC §5): the validated authorization request — or the
/// hosted page to return to, for the CIBA approval page (SPEC §6.4) — and the CSRF token of its forms, kept server-side for an hour as a single-use artefact under the SHA-256 of a random id that
/// travels as the `state` of the hosted pages. The login stage is peeked while the form is shown and
/// consumed by the successful post; the consent stage also names the session it was asked in and the
/// scopes it would grant.
struct LoginTransaction: Codable, Sendable {
    /// The artefact kinds of the stages.
    enum Stage: String, Sendable {
        case login = "login_tx"
        case consent = "consent_tx"
        /// The second factor is asked (SPEC §12); consumed when it is done.
        case mfa = "mfa_tx"
        /// The second factor was done and a new recovery code is shown; consumed by "Continue".
        case mfaDone = "mfa_done"
        /// A first federated login offers to link an existing account (SPEC §15 `/u/link`).
        case link = "link_tx"
        /// A password login done, "Create a passkey" is offered before the application gets its answer (SPEC §17).
        case passkeyOffer = "passkey_offer_tx"
        /// A `require` client's login asks for the organization's name first (SPEC §19 `pre_login_prompt`).
        case organizationPrompt = "organization_prompt_tx"
        /// The user picks one of their organizations after login (SPEC §19 `post_login_prompt`).
        case organizationPick = "organization_pick_tx"
    }

    static let lifetime: Double = 3600

    /// The authorization request to answer after login; `nil` when ``returnPath`` is set.
    var request: AuthorizationRequest?
    /// A hosted page (path and query) to send the person back to after login.
    var returnPath: String?
    /// The client the login is for (named on the login page).
    var clientID: String
    var csrf: String
    /// Consent stage: the session that will receive the code.
    var sessionID: String?
    /// Consent stage: the scopes the code will carry once accepted.
    var grantedScope: [String]?
    /// MFA stages: the user who passed the first factor (the session `sessionID` is theirs).
    var userID: String?
    /// MFA stages: the enrolment offered to a user with none yet (SPEC §12 `/u/mfa/enroll`).
    var enrollment: PendingEnrollment?
    /// MFA stages: the login is logged `s` once the second factor is done (a password or a session transfer
    /// token, not an SSO session).
    var recordsLogin: Bool?
    /// MFA stages of a federated login: the connection and the upstream's id, for the `s` log (SPEC §15).
    var connectionID: String?
    var identityUserID: String?
    /// Link and MFA stages: the identity a first federated login would add to an existing account, linked
    /// only once that account is proven (SPEC §15 "Linking").
    var link: PendingLink?

    /// The enrolment ticket a login offers as a QR code, and what its TOTP secret is.
    struct PendingEnrollment: Codable, Sendable {
        var ticketID: String
        var enrollmentID: String
        var totpSecret: String

        enum CodingKeys: String, CodingKey {
            case ticketID = "ticket_id"
            case enrollmentID = "enrollment_id"
            case totpSecret = "totp_secret"
        }
    }

    enum CodingKeys: String, CodingKey {
        case request, csrf
        case returnPath = "return_path"
        case clientID = "client_id"
        case sessionID = "session_id"
        case grantedScope = "granted_scope"
        case userID = "user_id"
        case enrollment
        case recordsLogin = "records_login"
        case connectionID = "connection_id"
        case identityUserID = "identity_user_id"
        case link
    }

    /// A login that answers `request`, or else returns to `returnPath`, for `clientID`.
    init(_ request: AuthorizationRequest?, returnPath: String?, clientID: String) {
        self.request = request
        self.returnPath = returnPath
        self.clientID = clientID
        self.csrf = RandomToken.make()
    }

    init(request: AuthorizationRequest, sessionID: String? = nil, grantedScope: [String]? = nil) {
        self.request = request
        self.clientID = request.clientID
        self.csrf = RandomToken.make()
        self.sessionID = sessionID
        self.grantedScope = grantedScope
    }

    /// A login that ends on `returnPath`, for `clientID`.
    init(returnPath: String, clientID: String) {
        self.returnPath = returnPath
        self.clientID = clientID
        self.csrf = RandomToken.make()
    }
}

/// The identity of a first federated login waiting to be linked to the existing account `userID` (SPEC §15
/// "Linking"): everything needed to store it, or to make it a user of its own instead; its kept tokens only
/// sealed.
struct PendingLink: Codable, Sendable {
    var userID: String
    var connectionID: String
    /// The upstream's id (a JSON number for GitHub).
    var identityUserID: JSONValue
    var profileData: [String: JSONValue]
    var sealedTokens: String?
    /// The upstream's ID token, for `/oidc/logout?federated`.
    var upstreamIDToken: String?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case connectionID = "connection_id"
        case identityUserID = "identity_user_id"
        case profileData = "profile_data"
        case sealedTokens = "sealed_tokens"
        case upstreamIDToken = "upstream_id_token"
    }

    /// The identity as stored, for `connection`.
    func identity(of connection: Connection) -> UserIdentity? {
        guard let id = UpstreamUserID(identityUserID) else { return nil }
        return UserIdentity(
            connectionID: connection.id,
            identity: FederatedIdentity(connection: connection.name, provider: connection.strategy, userID: id),
            profileData: profileData, sealedTokens: sealedTokens)
    }
}

/// Stores ``LoginTransaction``s as artefacts.
struct LoginTransactionStore: Sendable {
    let store: any ArtefactStore
    let clock: any WardenClock

    /// The transactions of `store`.
    init(store: any ArtefactStore, clock: any WardenClock) {
        self.store = store
        self.clock = clock
    }

    /// Stores `transaction` for `lifetime` seconds and returns its id.
    func start(
        _ transaction: LoginTransaction, stage: LoginTransaction.Stage, lifetime: Double = LoginTransaction.lifetime
    ) async throws -> String {
        let id = RandomToken.make()
        let payload = String(decoding: try JSONEncoder().encode(transaction), as: UTF8.self)
        try await store.putArtefact(
            kind: stage.rawValue, hash: SecretHash.sha256Hex(id), payload: payload,
            expiresAt: clock.now().addingTimeInterval(lifetime))
        return id
    }

    /// The pending transaction, left in place.
    func peek(_ id: String, stage: LoginTransaction.Stage) async throws -> LoginTransaction? {
        try await store.peekArtefact(
            kind: stage.rawValue, hash: SecretHash.sha256Hex(id), now: clock.now()
        )
        .flatMap(Self.decode)
    }

    /// The transaction, if this call is the one that consumed it.
    func consume(_ id: String, stage: LoginTransaction.Stage) async throws -> LoginTransaction? {
        let result = try await store.consumeArtefact(
            kind: stage.rawValue, hash: SecretHash.sha256Hex(id), now: clock.now())
        guard case .consumed(let payload) = result else { return nil }
        return Self.decode(payload)
    }

    private static func decode(_ payload: String) -> LoginTransaction? {
        try? JSONDecoder().decode(LoginTransaction.self, from: Data(payload.utf8))
    }
}
