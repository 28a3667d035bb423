import Foundation
import WardenCore
import WardenWire

/// Issues authorization codes (RFC 6749 §4.1.2): 256 random bits, stored only as their SHA-256 under
/// ``AuthorizationCodeGrant/artefactKind`` with the JSON of the ``AuthorizationCodeGrant`` (default
/// `JSONEncoder` strategies), single-use and valid for ``AuthorizationCodeGrant/lifetime`` seconds (SPEC §5).
struct AuthorizationCodeIssuer: Sendable {
    /// Where the codes are stored, as artefacts.
    let codes: any ArtefactStore
    let clock: any WardenClock

    /// An issuer storing its codes in `codes`.
    init(codes: any ArtefactStore, clock: any WardenClock) {
        self.codes = codes
        self.clock = clock
    }

    /// A new code for `request`, answered to `session`, carrying `scope`.
    func issue(for request: AuthorizationRequest, session: Session, scope: [String]) async throws -> String {
        let code = RandomToken.make()
        let grant = AuthorizationCodeGrant(
            clientID: request.clientID, redirectURI: request.redirectURI, codeChallenge: request.codeChallenge,
            userID: session.userID, sessionID: session.id, scope: scope, audience: request.audience,
            nonce: request.nonce, authTime: session.authTime, familyID: RandomToken.make(bytes: 16),
            amr: session.amr, organizationID: request.organization)
        try await codes.putArtefact(
            kind: AuthorizationCodeGrant.artefactKind, hash: SecretHash.sha256Hex(code),
            payload: String(decoding: try JSONEncoder().encode(grant), as: UTF8.self),
            expiresAt: clock.now().addingTimeInterval(AuthorizationCodeGrant.lifetime))
        return code
    }
}
