public import WardenWire

public import struct Foundation.Date

/// Clients (SPEC §4). Every method's contract is on the method.
public protocol ClientStore: Sendable {
    /// Inserts a new client, enabled for the database connection (SPEC §15: it is enabled for every new client);
    /// throws ``StorageError/conflict(_:)`` when the `client_id` exists.
    func insertClient(_ record: ClientRecord) async throws
    /// The client with `clientID`, or `nil`.
    func client(id clientID: String) async throws -> ClientRecord?
    /// A page of clients ordered by creation, or every client when `page` is `nil`.
    func clients(page: PageRequest?) async throws -> PageResult<ClientRecord>
    /// Replaces a client; throws ``StorageError/notFound`` when it does not exist. Its `expiresAt` is kept.
    func updateClient(_ record: ClientRecord) async throws
    /// Moves the expiry of a client that has one (a registered client, SPEC §13) to `date` when it is earlier;
    /// a client without an expiry is left alone.
    func extendClientExpiry(id clientID: String, to date: Date) async throws
    /// Deletes a client, its client grants and its place in connections' client lists; `false` when it did not
    /// exist.
    func deleteClient(id clientID: String) async throws -> Bool
}

/// APIs (SPEC §9 `/resource-servers`).
public protocol ResourceServerStore: Sendable {
    /// Inserts; throws ``StorageError/conflict(_:)`` when the identifier exists.
    func insertResourceServer(_ server: ResourceServer) async throws
    /// By `id` or by `identifier`.
    func resourceServer(idOrIdentifier: String) async throws -> ResourceServer?
    /// A page ordered by creation, or all when `page` is `nil`.
    func resourceServers(page: PageRequest?) async throws -> PageResult<ResourceServer>
    /// Replaces; throws ``StorageError/notFound``.
    func updateResourceServer(_ server: ResourceServer) async throws
    /// Deletes the API and the client grants for it; `false` when it did not exist.
    func deleteResourceServer(id: String) async throws -> Bool
}

/// Client grants (SPEC §9 `/client-grants`).
public protocol ClientGrantStore: Sendable {
    /// Inserts; throws ``StorageError/conflict(_:)`` when the (client, audience) pair has one.
    func insertClientGrant(_ grant: ClientGrant) async throws
    func clientGrant(id: String) async throws -> ClientGrant?
    /// Filtered by client and/or audience; all when `page` is `nil`.
    func clientGrants(clientID: String?, audience: String?, page: PageRequest?) async throws -> PageResult<
        ClientGrant
    >
    func updateClientGrant(_ grant: ClientGrant) async throws
    func deleteClientGrant(id: String) async throws -> Bool
}

/// Connections and the clients each is enabled for (SPEC §15 "Management").
public protocol ConnectionStore: Sendable {
    /// Inserts the connection enabled for `enabledClients`; throws ``StorageError/conflict(_:)`` when its id or
    /// name exists.
    func insertConnection(_ connection: Connection, enabledClients: [String]) async throws
    /// By id.
    func connection(id: String) async throws -> Connection?
    /// By name (names are unique).
    func connection(name: String) async throws -> Connection?
    /// Connections ordered by creation, filtered by `strategies` (any of them; all when empty) and `name`:
    /// one page, or every match when `page` is `nil`.
    func connections(strategies: [ConnectionStrategy], name: String?, page: PageRequest?) async throws
        -> PageResult<Connection>
    /// Up to `limit` connections ordered by id after `id` (from the start when `nil`): checkpoint paging.
    func connections(strategies: [ConnectionStrategy], name: String?, after id: String?, limit: Int) async throws
        -> [Connection]
    /// Replaces the connection; throws ``StorageError/notFound``. Its name and strategy never change.
    func updateConnection(_ connection: Connection) async throws
    /// Deletes the connection, its client list, its identities and the users they made (SPEC §15), remembering its id
    /// as deleted at `date`: a second delete of
    /// the same id reports ``ConnectionDeletion/alreadyDeleted`` (SPEC §15: 202, then 204).
    func deleteConnection(id: String, at date: Date) async throws -> ConnectionDeletion
    /// Up to `limit` ids of the clients the connection is enabled for, ordered, after `clientID`.
    func enabledClients(connectionID: String, after clientID: String?, limit: Int) async throws -> [String]
    /// Enables (`true`) or disables (`false`) the connection for each client, in one transaction.
    func setEnabledClients(connectionID: String, _ changes: [(clientID: String, enabled: Bool)]) async throws
    /// The connections enabled for the client, ordered by name.
    func connections(enabledFor clientID: String) async throws -> [Connection]
}

/// What ``ConnectionStore/deleteConnection(id:at:)`` did.
public enum ConnectionDeletion: Sendable, Equatable {
    case deleted
    case alreadyDeleted
    case notFound
}

/// Users of the database connection (SPEC §9 `/users`).
public protocol UserStore: Sendable {
    /// Inserts; throws ``StorageError/conflict(_:)`` when the id exists, or when a database user (`auth0|…`) has the
    /// e-mail of a new database user (case-insensitive): addresses are unique within the database connection only.
    func insertUser(_ record: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    /// The users of `ids` that exist, by id: one read for a page of them (an organization's members).
    func users(ids: [String]) async throws -> [String: UserRecord]
    /// The database connection's user with this e-mail address (the one who signs in with it), compared
    /// case-insensitively.
    func user(email: String) async throws -> UserRecord?
    /// Every user with this e-mail address, of any connection, in creation order (`users-by-email`).
    func users(email: String) async throws -> [UserRecord]
    /// Replaces; throws ``StorageError/notFound`` or ``StorageError/conflict(_:)`` (e-mail taken).
    func updateUser(_ record: UserRecord) async throws
    /// Deletes the user, their role assignments and their identities.
    func deleteUser(id: String) async throws -> Bool
    /// Inserts a user made by a first login through a connection, with the identity that made it, in one
    /// transaction; throws ``StorageError/conflict(_:)`` when the id or the identity exists (SPEC §15 "Users").
    func insertUser(_ record: UserRecord, identity: UserIdentity) async throws
    /// The user an identity of connection `connectionID` with upstream id `identityUserID` belongs to.
    func user(connectionID: String, identityUserID: String) async throws -> UserRecord?
    /// The stored identities of each of these users, oldest first (users without any are left out).
    func identities(ofUsers userIDs: [String]) async throws -> [String: [UserIdentity]]
    /// Replaces an identity's profile; throws ``StorageError/notFound``.
    func updateIdentityProfile(_ identity: UserIdentity) async throws
    /// Replaces an identity's kept upstream tokens (sealed by the caller; `nil` forgets them).
    func updateIdentityTokens(connectionID: String, identityUserID: String, sealed: String?) async throws
    /// Adds `identity`, which no user has yet, to the user `userID` (SPEC §15 "Linking", `/u/link`); throws
    /// ``StorageError/conflict(_:)`` when some user has it and ``StorageError/notFound`` without the user.
    func linkIdentity(_ identity: UserIdentity, to userID: String) async throws
    /// Moves every stored identity of the user `secondary` to `primary` and deletes `secondary`, in one
    /// transaction (SPEC §15 Management linking); throws ``StorageError/notFound`` when either is missing.
    func mergeUser(_ secondary: String, into primary: String) async throws
    /// Moves the identity of connection `connectionID` with upstream id `identityUserID` from the user `userID`
    /// to the new user `record`, in one transaction (SPEC §15 unlinking); throws ``StorageError/notFound`` when
    /// the user does not have it and ``StorageError/conflict(_:)`` when `record`'s id exists.
    func unlinkIdentity(connectionID: String, identityUserID: String, from userID: String, into record: UserRecord)
        async throws
    /// Users matching `query`, executed in SQL (never by loading every user).
    func searchUsers(_ query: UserQuery, sort: UserSort?, page: PageRequest) async throws -> PageResult<UserRecord>
    /// Inserts a batch in one transaction with multi-row statements (SPEC §9 "Bulk users"), password hashes
    /// stored as given. A record whose id or e-mail exists, or repeats earlier in the batch, is a
    /// ``BulkUserOutcome/duplicate`` — or, with `upsert`, updates that user (found by e-mail, else by id):
    /// profile, metadata and, when the record has one, password hash; id, creation date and login counts stay.
    /// Returns one outcome per record, in order.
    func insertUsers(_ records: [UserRecord], upsert: Bool) async throws -> [BulkUserOutcome]
    /// Runs `body`, an import's run of ``insertUsers(_:upsert:)`` batches, with the storage set for bulk writes
    /// for as long as it lasts (SQLite: a large page cache on the writer, issue 16).
    func withBulkUserWrites<T: Sendable>(_ body: () async throws -> T) async throws -> T
    /// Up to `limit` users ordered by `user_id`, after `userID` (from the start when `nil`): an export's pages.
    func users(after userID: String?, limit: Int) async throws -> [UserRecord]
}

extension UserStore {
    /// Stores with no setting for bulk writes run `body` as it is.
    public func withBulkUserWrites<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await body()
    }
}

/// Bulk-users jobs (SPEC §9 "Bulk users"): their state, an import's rejected entries, an export's output.
public protocol UserJobStore: Sendable {
    /// Inserts; throws ``StorageError/conflict(_:)`` when the id exists.
    func insertUserJob(_ job: UserJob) async throws
    func userJob(id: String) async throws -> UserJob?
    /// Replaces status, summary, failure and `updatedAt`; throws ``StorageError/notFound``.
    func updateUserJob(_ job: UserJob) async throws
    /// Marks failed every job still pending or in progress whose `updatedAt` is before `date` (interrupted by a
    /// stop); returns how many.
    func failInterruptedUserJobs(before date: Date, now: Date) async throws -> Int
    /// Records rejected entries of an import.
    func appendUserJobErrors(jobID: String, _ rejections: [UserImportRejection]) async throws
    /// The rejected entries of an import, by index.
    func userJobErrors(jobID: String) async throws -> [UserImportRejection]
    /// Appends the next part of an export's output (`sequence` from 0).
    func appendUserExportPart(jobID: String, sequence: Int, _ text: String) async throws
    /// Up to `limit` parts of an export's output after `sequence` (from the start when `nil`), in order.
    func userExportParts(jobID: String, after sequence: Int?, limit: Int) async throws -> [(
        sequence: Int, text: String
    )]
}

/// Roles and permissions (SPEC §9, RBAC).
public protocol RoleStore: Sendable {
    func insertRole(_ role: Role) async throws
    func role(id: String) async throws -> Role?
    func roles(page: PageRequest?) async throws -> PageResult<Role>
    func updateRole(_ role: Role) async throws
    func deleteRole(id: String) async throws -> Bool
    /// Adds permissions to a role (idempotent).
    func addPermissions(_ permissions: [Permission], toRole roleID: String) async throws
    func removePermissions(_ permissions: [Permission], fromRole roleID: String) async throws
    func permissions(ofRole roleID: String) async throws -> [Permission]
    /// Assigns roles to a user (idempotent).
    func assignRoles(_ roleIDs: [String], toUser userID: String) async throws
    func removeRoles(_ roleIDs: [String], fromUser userID: String) async throws
    func roles(ofUser userID: String) async throws -> [Role]
    /// The permission names the user holds on one API through all their roles.
    func permissionNames(ofUser userID: String, resourceServer identifier: String) async throws -> Set<String>
}

/// The event log (SPEC §10).
public protocol LogStore: Sendable {
    /// Appends events (one batch, one statement).
    func appendLogs(_ events: [LogEvent]) async throws
    func log(id: String) async throws -> LogEvent?
    /// Events matching `filter`, newest first unless `ascending`.
    func searchLogs(_ filter: LogFilter, ascending: Bool, page: PageRequest) async throws -> PageResult<LogEvent>
    /// Up to `take` events newer than `logID`, oldest first (checkpoint paging); from the start when `nil`.
    func logs(after logID: String?, take: Int) async throws -> [LogEvent]
}

/// Signing keys (SPEC §2).
public protocol SigningKeyStore: Sendable {
    /// Every stored key, revoked ones included, oldest first.
    func signingKeys() async throws -> [SigningKeyRecord]
    /// Stores `record` as the current key of its algorithm; the previous current key of that algorithm
    /// becomes previous (still published) in the same statement sequence.
    func insertCurrentSigningKey(_ record: SigningKeyRecord) async throws
    /// Marks a previous key revoked; throws ``StorageError/notFound``, or ``StorageError/conflict(_:)`` when
    /// the key is current.
    func revokeSigningKey(kid: String, at date: Date) async throws
}

/// Single-use artefacts stored by hash: authorization codes, `jti`s, session transfer tokens, ….
public protocol ArtefactStore: Sendable {
    /// Stores an artefact under `kind` and the hash of its value.
    func putArtefact(kind: String, hash: String, payload: String, expiresAt: Date) async throws
    /// Atomically consumes it: of N concurrent calls exactly one gets ``ConsumeResult/consumed(payload:)``.
    func consumeArtefact(kind: String, hash: String, now: Date) async throws -> ConsumeResult
    /// The payload of an unconsumed, unexpired artefact, without consuming it (a login transaction viewed
    /// before it is completed).
    func peekArtefact(kind: String, hash: String, now: Date) async throws -> String?
    /// Records `hash` as used if it is new (insert-if-absent); `false` when it was seen before (a replay).
    func rememberOnce(kind: String, hash: String, expiresAt: Date) async throws -> Bool
}

/// Everything Warden stores.
public protocol WardenStore: ClientStore, ResourceServerStore, ClientGrantStore, UserStore, RoleStore, LogStore,
    ChangeChannel, SigningKeyStore, ArtefactStore, SessionStore, RefreshTokenStore, LoginThrottleStore,
    BackchannelRequestStore, DeliveryJobStore, DeviceStore, SessionTransferStore, PostLoginRuleStore,
    HousekeepingStore, GaugeStore, ActivityStore, BackchannelListingStore, MFASettingsStore, AuthenticatorStore,
    RecentLoginStore, UserJobStore, LoginChallengeStore, ConnectionStore, AccountStore, WebAuthnCredentialStore,
    OrganizationStore
{
    /// Whether the database answers (`/readyz`).
    func ping() async throws
    /// Whether `error`, thrown by this store, means the database cannot be reached now (refused or lost
    /// connections, no pooled connection in time) rather than a failed query: SPEC §11 answers 503 then.
    func isUnavailable(_ error: any Error) -> Bool
    /// Closes connections.
    func shutdown() async throws
}

/// Post-login rules (SPEC §8 "Post-login rules").
public protocol PostLoginRuleStore: Sendable {
    /// Inserts; throws ``StorageError/conflict(_:)`` when the id exists.
    func insertPostLoginRule(_ rule: PostLoginRule) async throws
    func postLoginRule(id: String) async throws -> PostLoginRule?
    /// A page of rules by ascending `order`, ties by creation, or all of them when `page` is `nil`.
    func postLoginRules(page: PageRequest?) async throws -> PageResult<PostLoginRule>
    /// The enabled rules in the order they run (ascending `order`, ties by creation), in one query.
    func enabledPostLoginRules() async throws -> [PostLoginRule]
    /// Replaces; throws ``StorageError/notFound``.
    func updatePostLoginRule(_ rule: PostLoginRule) async throws
    func deletePostLoginRule(id: String) async throws -> Bool
}

/// SSO sessions (SPEC §5).
public protocol SessionStore: Sendable {
    /// Stores a session under the SHA-256 hash of its cookie secret.
    func insertSession(_ session: Session, secretHash: String) async throws
    /// The session whose cookie secret hashes to `secretHash`, if it exists (active or not).
    func session(secretHash: String) async throws -> Session?
    /// The session by its public id.
    func session(id: String) async throws -> Session?
    /// Replaces a session (new `authTime`, activity times); throws ``StorageError/notFound``.
    func updateSession(_ session: Session) async throws
    /// Ends a session; `false` when it did not exist.
    func deleteSession(id: String) async throws -> Bool
    /// Ends every session created from a refresh-token family (SPEC §8 cascade revocation); returns how many.
    func deleteSessions(sourceFamilyID: String) async throws -> Int
}

/// What Native-to-Web SSO adds to sessions and refresh tokens (SPEC §8).
public protocol SessionTransferStore: Sendable {
    /// Cascade revocation (SPEC §8 `enforce_cascade_revocation`), in one transaction: sets `revoked_at = date` on
    /// the unrevoked refresh tokens issued within the sessions created from the refresh-token family `familyID`,
    /// then ends those sessions. Returns how many sessions ended.
    func endTransferredSessions(sourceFamilyID familyID: String, at date: Date) async throws -> Int
}

/// Refresh tokens (SPEC §3).
public protocol RefreshTokenStore: Sendable {
    /// Stores a token; throws ``StorageError/revoked`` when its family was revoked, atomically with
    /// ``revokeRefreshTokenFamily(_:at:)``: whatever the interleaving, a revoked family never gains a live token
    /// (RFC 9700 §4.14.2: a rotation racing the reuse detection that revokes its family loses).
    func insertRefreshToken(_ record: RefreshTokenRecord) async throws
    /// Redeems a token at `now`. With `rotating`, atomically marks it used so that of N concurrent
    /// redemptions exactly one is ``RefreshTokenUse/valid(_:)`` and the others ``RefreshTokenUse/reused(_:)``.
    func useRefreshToken(hash: String, rotating: Bool, now: Date) async throws -> RefreshTokenUse
    /// Revokes every token of a family and marks the family revoked (later inserts into it fail); returns how
    /// many of its tokens were live.
    func revokeRefreshTokenFamily(_ familyID: String, at date: Date) async throws -> Int
    /// The token record by hash, whatever its state.
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// The token record by hash, whatever its state, with its user and its session's `auth_time`, in one
    /// statement (the refresh grant's read).
    func refreshTokenContext(hash: String) async throws -> RefreshTokenContext?
}

/// Password-login failures and locks (SPEC §5: 10 failures in 15 minutes lock for 15 minutes; §11: the count is
/// atomic).
public protocol LoginThrottleStore: Sendable {
    /// Reserves a password check at `date`, atomically across connections and nodes: ``LoginAttemptReservation/locked``
    /// when a lock is in force or `limit` attempts since `windowStart` are already recorded; otherwise records
    /// this attempt as a failure (``clearLoginFailures(userID:)`` forgets it when the password is right) and
    /// answers its ordinal. Of N concurrent reservations with none recorded before, exactly `limit` are
    /// ``LoginAttemptReservation/reserved(ordinal:)``, numbered 1 to `limit`. Failures before `windowStart` are
    /// dropped.
    func reserveLoginAttempt(userID: String, at date: Date, windowStart: Date, limit: Int) async throws
        -> LoginAttemptReservation
    /// Locks the user's password login until `date`.
    func lockLogin(userID: String, until date: Date) async throws
    /// The end of the current lock, if one is in force at `now`.
    func loginLockedUntil(userID: String, now: Date) async throws -> Date?
    /// Forgets the failures (after a successful login).
    func clearLoginFailures(userID: String) async throws
}

/// CIBA requests (SPEC §6): durable, shared by every node, each decided once and redeemed once.
public protocol BackchannelRequestStore: Sendable {
    /// Inserts `request` unless its user already has `limit` requests created after
    /// `request.createdAt - window` (SPEC §6.1: 5 per minute across clients). The check and the insert are
    /// atomic across connections and nodes: of N concurrent inserts for one user with no earlier requests,
    /// exactly `limit` succeed. `deliveryJobs` (the request's approval e-mail, SPEC §6.1) are stored in the
    /// same transaction: with the request, or not at all. Throws ``StorageError/conflict(_:)`` on a duplicate
    /// id, consent id, approval token or job id.
    func insertBackchannelRequest(
        _ request: BackchannelRequest, limit: Int, window: Double, deliveryJobs: [DeliveryJob]
    ) async throws -> BackchannelInsertResult
    /// The request by ``BackchannelRequest/id`` (the SHA-256 of its `auth_req_id`), whatever its state.
    func backchannelRequest(id: BackchannelRequest.ID) async throws -> BackchannelRequest?
    /// The request whose e-mail approval token hashes to `approvalTokenHash`.
    func backchannelRequest(approvalTokenHash: String) async throws -> BackchannelRequest?
    /// The request whose consent id is `consentID`.
    func backchannelRequest(consentID: String) async throws -> BackchannelRequest?
    /// Moves a pending, unexpired request to `approved` or `denied` with `decidedAt = now`. Atomic: of N
    /// concurrent calls exactly one gets ``BackchannelDecision/decided(_:)``.
    func decideBackchannelRequest(id: BackchannelRequest.ID, approved: Bool, at now: Date) async throws
        -> BackchannelDecision
    /// Moves an approved, unexpired request of `clientID` to `redeemed`. Atomic: of N concurrent calls exactly
    /// one gets ``BackchannelRedemption/redeemed(_:)``.
    func redeemBackchannelRequest(id: BackchannelRequest.ID, clientID: String, at now: Date) async throws
        -> BackchannelRedemption
}

extension BackchannelRequestStore {
    /// ``insertBackchannelRequest(_:limit:window:deliveryJobs:)`` without delivery jobs (a push request's
    /// notification is sent, not queued).
    public func insertBackchannelRequest(_ request: BackchannelRequest, limit: Int, window: Double) async throws
        -> BackchannelInsertResult
    {
        try await insertBackchannelRequest(request, limit: limit, window: window, deliveryJobs: [])
    }
}

/// The outbox of ``DeliveryJob``s, shared by every node: any node may claim a due job.
public protocol DeliveryJobStore: Sendable {
    /// Stores jobs, all or none. A job stored with `nextAttemptAt` in the future and `attempts = 1` is one the
    /// caller is attempting right away: nobody else claims it before then.
    func insertDeliveryJobs(_ jobs: [DeliveryJob]) async throws
    /// Claims up to `limit` jobs due at `now` and not expired: each claimed job gets `attempts + 1` and
    /// `nextAttemptAt = leaseUntil`, so no other caller claims it before then. Atomic per job: of N concurrent
    /// claimers exactly one gets a given job. Returns the jobs as claimed.
    func claimDeliveryJobs(now: Date, leaseUntil: Date, limit: Int) async throws -> [DeliveryJob]
    /// Removes a job that succeeded (or that will never succeed).
    func deleteDeliveryJob(id: String) async throws
    /// Records a failed attempt and when to try again.
    func rescheduleDeliveryJob(id: String, at date: Date, error: String) async throws
    /// Removes at most `limit` of the jobs that expired before `date` undelivered, and returns them (for the
    /// log); fewer than `limit`: none of them is left.
    func purgeDeliveryJobs(expiredBefore date: Date, limit: Int) async throws -> [DeliveryJob]
}

/// Authenticator devices and the transactions sent to them (SPEC §7).
public protocol DeviceStore: Sendable {
    /// Stores an enrolment; throws ``StorageError/conflict(_:)`` when the user already has a device with this
    /// `identifier` (SPEC §7.1 409 `already_enrolled`) or the id or token hash exists.
    func insertDeviceEnrollment(_ enrollment: DeviceEnrollment) async throws
    func deviceEnrollment(id: String) async throws -> DeviceEnrollment?
    /// The enrolment whose device-account token hashes to `tokenHash`.
    func deviceEnrollment(tokenHash: String) async throws -> DeviceEnrollment?
    /// The user's enrolment named `identifier` (unique per user, SPEC §7.1), in one indexed query.
    func deviceEnrollment(userID: String, identifier: String) async throws -> DeviceEnrollment?
    /// The user's enrolments, oldest first.
    func deviceEnrollments(userID: String) async throws -> [DeviceEnrollment]
    /// Replaces the name, identifier, push credentials and `pushDisabled`; throws ``StorageError/notFound``,
    /// or ``StorageError/conflict(_:)`` when the new identifier is taken for the user.
    func updateDeviceEnrollment(_ enrollment: DeviceEnrollment) async throws
    /// Deletes the enrolment and its transactions; `false` when it did not exist.
    func deleteDeviceEnrollment(id: String) async throws -> Bool
    /// Whether the user has at least one push-enrolled device (SPEC §6.1), in one query.
    func hasPushEnrolledDevice(userID: String) async throws -> Bool
    /// Stores the transactions of one request (one per device), all or none.
    func insertDeviceTransactions(_ transactions: [DeviceTransaction]) async throws
    /// The transaction `id` (the `txtkn` names it).
    func deviceTransaction(id: String) async throws -> DeviceTransaction?
    /// The device's transactions whose request is still pending and unexpired at `now`, oldest first
    /// (SPEC §7.5), in one query joined with `ciba_requests` and `login_challenges`.
    func pendingDeviceTransactions(enrollmentID: String, now: Date) async throws -> [DeviceTransaction]
}

/// Records that end, purged off the request path in small batches (ARCHITECTURE: housekeeping deletes in
/// bounded batches; SPEC §11: no anonymous request leaves rows behind for good).
public protocol HousekeepingStore: Sendable {
    /// Deletes at most `limit` records of `kind` that ended before `date`; returns how many it deleted (fewer
    /// than `limit`: none of them is left).
    func purgeBatch(_ kind: EndingRecords, endedBefore date: Date, limit: Int) async throws -> Int
}

/// What ``HousekeepingStore/purgeBatch(_:endedBefore:limit:)`` deletes: an open set of `RawRepresentable`
/// values, each a kind of record with an end.
public struct EndingRecords: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Single-use artefacts (codes, login and consent transactions, …) past `expires_at`.
    public static let artefacts = EndingRecords(rawValue: "artefacts")
    /// Device transactions (SPEC §7.2) past `expires_at`.
    public static let deviceTransactions = EndingRecords(rawValue: "device_transactions")
    /// Password-login failures (of users and of unknown addresses alike) recorded before the date.
    public static let loginFailures = EndingRecords(rawValue: "login_failures")
    /// Password-login locks that ended before the date.
    public static let loginLocks = EndingRecords(rawValue: "login_locks")
    /// Registered clients (SPEC §13) past their expiry, with their client grants.
    public static let registeredClients = EndingRecords(rawValue: "registered_clients")
    /// Log events (SPEC §10) dated before the date (the retention's cut-off).
    public static let logs = EndingRecords(rawValue: "logs")
    /// Sessions past their absolute or idle end.
    public static let sessions = EndingRecords(rawValue: "sessions")
    /// CIBA requests (SPEC §6) that expired before the date.
    public static let backchannelRequests = EndingRecords(rawValue: "backchannel_requests")
    /// Sign-in pushes (SPEC §12) that expired before the date.
    public static let loginChallenges = EndingRecords(rawValue: "login_challenges")
    /// Finished bulk-user jobs (SPEC §9) last updated before the date, with their errors and export files.
    public static let userJobs = EndingRecords(rawValue: "user_jobs")
}
