import Foundation
import WardenCore
import WardenWire

/// An enrolment ticket (SPEC §7.1): made by the Management API, valid 7 days, single use (the device's
/// enrolment consumes it). Stored as an artefact under the SHA-256 of its id; it fixes the device account id
/// and the TOTP secret that the `otpauth://` URI of the ticket page carries.
struct EnrollmentTicket: Codable, Sendable {
    static let artefactKind = "enrollment_ticket"
    static let lifetime: Double = 7 * 86400
    /// The label of the authenticator account (SPEC §7.1 `issuer`).
    static let issuerLabel = "Warden"

    var userID: String
    var userEmail: String
    var enrollmentID: String
    var totpSecret: String

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case userEmail = "user_email"
        case enrollmentID = "enrollment_id"
        case totpSecret = "totp_secret"
    }

    /// A new ticket for `user`: a fresh device account id and a 160-bit TOTP secret (RFC 4226 §4).
    init(user: User) {
        self.init(
            userID: user.userID, userEmail: user.email ?? user.userID,
            enrollmentID: RandomToken.identifier(prefix: "dev_"), totpSecret: Base32.encode(RandomToken.bytes(20)))
    }

    init(userID: String, userEmail: String, enrollmentID: String, totpSecret: String) {
        self.userID = userID
        self.userEmail = userEmail
        self.enrollmentID = enrollmentID
        self.totpSecret = totpSecret
    }

    /// The terminal authenticator's command that enrols with the ticket page at `url`.
    static func enrollCommand(url: String) -> String {
        "warden authenticator enroll '\(url)'"
    }

    /// `{issuer}u/guardian/enroll?ticket={id}`: the hosted page with the QR code.
    static func url(issuer: String, ticketID: String) -> String {
        issuer + "u/guardian/enroll?ticket=" + ticketID
    }

    /// The `otpauth://` URI of SPEC §7.1 that the device scans.
    func otpauthURI(ticketID: String, issuer: String) -> String {
        let label = Self.encode(Self.issuerLabel) + ":" + Self.encode(userEmail)
        let query = [
            ("secret", totpSecret), ("enrollment_tx_id", ticketID), ("issuer", Self.issuerLabel),
            ("id", enrollmentID), ("base_url", issuer), ("algorithm", "sha1"), ("digits", "6"), ("counter", "0"),
            ("period", "30"),
        ]
        return "otpauth://totp/" + label + "?" + query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
    }

    /// Percent-encoding of everything but RFC 3986 unreserved characters.
    private static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// Stores and reads ``EnrollmentTicket``s.
struct EnrollmentTickets: Sendable {
    /// Where tickets are kept, as artefacts.
    let store: any ArtefactStore
    let clock: any WardenClock

    /// The tickets of `store`.
    init(store: any ArtefactStore, clock: any WardenClock) {
        self.store = store
        self.clock = clock
    }

    /// Stores `ticket` and returns its id.
    func issue(_ ticket: EnrollmentTicket, lifetime: Double = EnrollmentTicket.lifetime) async throws -> String {
        let id = RandomToken.make()
        try await store.putArtefact(
            kind: EnrollmentTicket.artefactKind, hash: SecretHash.sha256Hex(id),
            payload: String(decoding: try JSONEncoder().encode(ticket), as: UTF8.self),
            expiresAt: clock.now().addingTimeInterval(lifetime))
        return id
    }

    /// The unused, unexpired ticket `id`, left in place (the page may be viewed again).
    func peek(_ id: String) async throws -> EnrollmentTicket? {
        guard
            let payload = try await store.peekArtefact(
                kind: EnrollmentTicket.artefactKind, hash: SecretHash.sha256Hex(id), now: clock.now())
        else { return nil }
        return Self.decode(payload)
    }

    /// Uses the ticket: of concurrent calls exactly one gets it (SPEC §7.1 "single-use").
    func consume(_ id: String) async throws -> EnrollmentTicket? {
        let result = try await store.consumeArtefact(
            kind: EnrollmentTicket.artefactKind, hash: SecretHash.sha256Hex(id), now: clock.now())
        guard case .consumed(let payload) = result else { return nil }
        return Self.decode(payload)
    }

    /// Decodes a stored ticket.
    private static func decode(_ payload: String) -> EnrollmentTicket? {
        try? JSONDecoder().decode(EnrollmentTicket.self, from: Data(payload.utf8))
    }
}
