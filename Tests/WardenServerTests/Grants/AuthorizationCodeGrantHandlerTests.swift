import Foundation
import Synchronization
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// ``AuthorizationCodeGrantHandler`` built from its own dependencies: storage is scripted to answer what only a
/// race reaches through HTTP (a code consumed by another request first), and records what the replay revoked.
@Suite("authorization_code, with scripted stores")
struct AuthorizationCodeGrantHandlerTests {
    /// The stores the grant and its family revocation use, and nothing more: `consumeArtefact` answers
    /// `consume`, revocations are recorded.
    final class ScriptedStores: ArtefactStore, RefreshTokenStore, SessionTransferStore {
        struct Calls {
            var artefactKinds: [String] = []
            var revokedFamilies: [String] = []
            var endedFamilies: [String] = []
        }

        let consume: ConsumeResult
        let calls = Mutex(Calls())

        init(consume: ConsumeResult) {
            self.consume = consume
        }

        func putArtefact(kind: String, hash: String, payload: String, expiresAt: Date) async throws {
            calls.withLock { $0.artefactKinds.append(kind) }
        }
        func consumeArtefact(kind: String, hash: String, now: Date) async throws -> ConsumeResult { consume }
        func peekArtefact(kind: String, hash: String, now: Date) async throws -> String? { nil }
        func rememberOnce(kind: String, hash: String, expiresAt: Date) async throws -> Bool { true }

        func insertRefreshToken(_ record: RefreshTokenRecord) async throws {
            Issue.record("no refresh token is issued for a refused code")
        }
        func useRefreshToken(hash: String, rotating: Bool, now: Date) async throws -> RefreshTokenUse { .notFound }
        func revokeRefreshTokenFamily(_ familyID: String, at date: Date) async throws -> Int {
            calls.withLock { $0.revokedFamilies.append(familyID) }
            return 1
        }
        func refreshToken(hash: String) async throws -> RefreshTokenRecord? { nil }
        func refreshTokenContext(hash: String) async throws -> RefreshTokenContext? { nil }

        func endTransferredSessions(sourceFamilyID familyID: String, at date: Date) async throws -> Int {
            calls.withLock { $0.endedFamilies.append(familyID) }
            return 0
        }
    }

    /// The handler over `stores`; keys, users, the event log and the tenant cache are a test tenant's.
    static func handler(_ stores: ScriptedStores, warden: TestWarden) -> AuthorizationCodeGrantHandler {
        let runtime = warden.runtime
        let issuer = TokenIssuer(
            keys: runtime.keys, tenant: runtime.cache, refreshTokens: stores, users: runtime.store,
            eventLog: runtime.eventLog, clock: warden.clock, issuer: runtime.issuer,
            userinfoAudience: runtime.configuration.userinfoAudience)
        let revocation = RefreshTokenFamilyRevocation(
            refreshTokens: stores, accessTokens: AccessTokenRevocation(store: stores), transferredSessions: stores,
            tenant: runtime.cache)
        return AuthorizationCodeGrantHandler(
            codes: stores, familyRevocation: revocation, issuer: issuer, clock: warden.clock,
            organizations: warden.runtime.store)
    }

    static let redirectURI = "https://app.example.com/callback"

    static func request() -> TokenRequest {
        let client = Client(clientID: "app_" + RandomToken.make(bytes: 8), name: "App")
        return TokenRequest(
            parameters: RequestParameters([
                "grant_type": "authorization_code", "code": "the-code", "redirect_uri": redirectURI,
                "code_verifier": String(repeating: "v", count: 43),
            ]),
            client: ClientRecord(client: client, secretHash: nil, createdAt: Date(), updatedAt: Date()), ip: nil,
            userAgent: nil)
    }

    /// What `/authorize` stored for the code, as the artefact payload.
    static func payload(clientID: String, familyID: String) throws -> String {
        let grant = AuthorizationCodeGrant(
            clientID: clientID, redirectURI: redirectURI, codeChallenge: nil, userID: "auth0|user", sessionID: "ses",
            scope: ["openid"], audience: nil, nonce: nil, authTime: Date(), familyID: familyID)
        return String(decoding: try JSONEncoder().encode(grant), as: UTF8.self)
    }

    @Test func aReplayedCodeRevokesTheFamilyOfItsFirstExchange() async throws {
        let warden = try await TestWarden.make()
        let request = Self.request()
        let stores = ScriptedStores(
            consume: .alreadyConsumed(
                payload: try Self.payload(clientID: request.client.client.clientID, familyID: "fam_1")))
        let error = await #expect(throws: OAuthError.self) {
            _ = try await Self.handler(stores, warden: warden).exchange(request)
        }
        #expect(error?.code == .invalidGrant)
        #expect(error?.description == "The authorization code was already used")
        let calls = stores.calls.withLock { $0 }
        #expect(calls.revokedFamilies == ["fam_1"])
        #expect(calls.artefactKinds == [AccessTokenRevocation.artefactKind])
        #expect(calls.endedFamilies == ["fam_1"])
    }

    @Test(arguments: [
        (ConsumeResult.expired, "The authorization code has expired"),
        (ConsumeResult.notFound, "Invalid authorization code"),
    ])
    func aCodeThatCannotBeConsumedRevokesNothing(consume: ConsumeResult, description: String) async throws {
        let warden = try await TestWarden.make()
        let stores = ScriptedStores(consume: consume)
        let error = await #expect(throws: OAuthError.self) {
            _ = try await Self.handler(stores, warden: warden).exchange(Self.request())
        }
        #expect(error?.code == .invalidGrant)
        #expect(error?.description == description)
        let calls = stores.calls.withLock { $0 }
        #expect(calls.revokedFamilies.isEmpty && calls.artefactKinds.isEmpty && calls.endedFamilies.isEmpty)
    }
}
