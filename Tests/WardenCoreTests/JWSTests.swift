import Foundation
import JWTKit
import Testing
import WardenCore
import WardenWire

/// Warden signs with swift-crypto directly; jwt-kit (a third-party implementation) must accept every token.
@Suite("JWS signing verified by jwt-kit")
struct JWSTests {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var scope: String
        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func thirdPartyVerifiesOurSignature(alg: SigningAlgorithm) async throws {
        let record = try JWSKey.generate(alg: alg, now: Date())
        let key = try JWSKey(record: record)
        let exp = Int(Date().timeIntervalSince1970) + 60
        let token = try key.sign(payload: #"{"sub":"alice","exp":\#(exp),"scope":"read"}"#, type: "at+jwt")
        let ring = try KeyRing(records: [record])
        let keys = try await JWTKeyCollection().add(jwksJSON: ring.snapshot.jwksJSON)
        let claims = try await keys.verify(token, as: Claims.self)
        #expect(claims.sub.value == "alice")
        #expect(claims.scope == "read")
        let header = try CompactJWS(parsing: token).header
        #expect(header["typ"] == "at+jwt")
        #expect(header["kid"] == .string(record.kid))
        #expect(header["alg"] == .string(alg.rawValue))
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func ourVerifierRejectsATamperedPayload(alg: SigningAlgorithm) throws {
        let key = try JWSKey(record: try JWSKey.generate(alg: alg, now: Date()))
        let token = try key.sign(payload: #"{"sub":"alice"}"#)
        #expect(try CompactJWS(parsing: token).isSigned(by: key.verifier))
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Data(#"{"sub":"mallory"}"#.utf8))
        #expect(try !CompactJWS(parsing: parts.joined(separator: ".")).isSigned(by: key.verifier))
    }

    @Test func algNoneIsNeverAccepted() throws {
        let key = try JWSKey(record: try JWSKey.generate(alg: .es256, now: Date()))
        let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
        let payload = Base64URL.encode(Data(#"{"sub":"x"}"#.utf8))
        #expect(try !CompactJWS(parsing: "\(header).\(payload).").isSigned(by: key.verifier))
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!.e30.", "e30.e30"])
    func malformedTokensAreRefused(token: String) {
        #expect(throws: JWSError.malformed) { try CompactJWS(parsing: token) }
    }

    @Test func jwksPublishesPreviousKeysUntilRevoked() throws {
        let now = Date()
        var old = try JWSKey.generate(alg: .rs256, now: now)
        old.current = false
        let new = try JWSKey.generate(alg: .rs256, now: now)
        var revoked = try JWSKey.generate(alg: .es256, now: now)
        revoked.current = false
        revoked.revokedAt = now
        let ring = try KeyRing(records: [old, new, revoked])
        #expect(ring.currentKey(for: .rs256)?.kid == new.kid)
        #expect(ring.publishedKey(kid: old.kid) != nil)
        #expect(ring.publishedKey(kid: revoked.kid) == nil)
        let jwks = try JSONDecoder().decode(JWKSet.self, from: Data(ring.snapshot.jwksJSON.utf8))
        #expect(Set(jwks.keys.compactMap(\.kid)) == [old.kid, new.kid])
        #expect(jwks.keys.allSatisfy { $0.use == "sig" && $0.alg == "RS256" })
    }
}
