import Crypto
import Foundation
import JWTKit
import Testing
import WardenAuthenticator

struct ChallengeResponsePayload: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var method: String
    var accepted: Bool
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp
        case method = "auth0_guardian_method"
        case accepted = "auth0_guardian_accepted"
        case reason = "auth0_guardian_reason"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

struct DPoPPayload: JWTPayload {
    var htu: String
    var htm: String
    var ath: String
    var jti: String
    var iat: IssuedAtClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

struct DeviceAccountPayload: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// Verifies with jwt-kit against a key built from a JWK's `n` and `e`, as the server will.
func verifier(for jwk: PublicJWK) async throws -> JWTKeyCollection {
    let key = try Insecure.RSA.PublicKey(modulus: jwk.n, exponent: jwk.e)
    return await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256)
}

func base64URL(_ data: some DataProtocol) -> String {
    Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

@Suite struct DeviceJWTTests {
    @Test func challengeResponseAccepted() async throws {
        let now = Date()
        let token = try DeviceJWT.challengeResponse(
            deviceIdentifier: "device-install-1", challenge: "challenge-xyz", issuer: issuer, accepted: true,
            key: sharedKey, now: now)
        let payload = try await verifier(for: sharedKey.publicJWK).verify(token, as: ChallengeResponsePayload.self)
        #expect(payload.iss.value == "device-install-1")
        #expect(payload.sub.value == "challenge-xyz")
        #expect(payload.aud.value == ["https://warden.example:8443/appliance-mfa/api/resolve-transaction"])
        #expect(payload.method == "push")
        #expect(payload.accepted)
        #expect(payload.reason == nil)
        let lifetime = payload.exp.value.timeIntervalSince(payload.iat.value)
        #expect(lifetime > 0 && lifetime <= 60)
        #expect(abs(payload.iat.value.timeIntervalSince(now)) < 2)

        let parts = try #require(jwsParts(token))
        #expect(parts.header.count == 2)
        #expect(parts.header["alg"] as? String == "RS256")
        #expect(parts.header["typ"] as? String == "JWT")
        #expect(parts.header["kid"] == nil)
        #expect(parts.claims["auth0_guardian_reason"] == nil)
    }

    @Test func challengeResponseRejectedWithReason() async throws {
        let token = try DeviceJWT.challengeResponse(
            deviceIdentifier: "d", challenge: "c", issuer: "https://warden.example", accepted: false,
            reason: "hacked", key: sharedKey, lifetime: 600)
        let payload = try await verifier(for: sharedKey.publicJWK).verify(token, as: ChallengeResponsePayload.self)
        #expect(!payload.accepted)
        #expect(payload.reason == "hacked")
        #expect(payload.aud.value == ["https://warden.example/appliance-mfa/api/resolve-transaction"])
        #expect(payload.exp.value.timeIntervalSince(payload.iat.value) == 60)
    }

    @Test func anotherKeyDoesNotVerify() async throws {
        let other = try DeviceKey.generate()
        let token = try DeviceJWT.challengeResponse(
            deviceIdentifier: "d", challenge: "c", issuer: issuer, accepted: true, key: other)
        await #expect(throws: (any Error).self) {
            try await verifier(for: sharedKey.publicJWK).verify(token, as: ChallengeResponsePayload.self)
        }
    }

    @Test func dpopProof() async throws {
        let url = URL(string: "https://warden.example:8443/rich-consents/cns_42?x=1#frag")!
        let proof = try DeviceJWT.dpopProof(method: "get", url: url, transactionToken: "txtkn_opaque", key: sharedKey)
        let parts = try #require(jwsParts(proof))
        #expect(parts.header["alg"] as? String == "RS256")
        #expect(parts.header["typ"] as? String == "dpop+jwt")
        #expect(parts.header["kid"] == nil)
        // Verify against the key the proof itself carries, as a DPoP verifier does (RFC 9449 §4.3).
        let embedded = try #require(parts.header["jwk"] as? [String: Any])
        let jwk = try JSONDecoder().decode(PublicJWK.self, from: json(embedded))
        #expect(jwk == sharedKey.publicJWK)
        let payload = try await verifier(for: jwk).verify(proof, as: DPoPPayload.self)
        #expect(payload.htu == "https://warden.example:8443/rich-consents/cns_42")
        #expect(payload.htm == "GET")
        #expect(payload.ath == base64URL(Data(SHA256.hash(data: Data("txtkn_opaque".utf8)))))
        #expect(payload.jti.count >= 16)
        let second = try DeviceJWT.dpopProof(method: "GET", url: url, transactionToken: "t", key: sharedKey)
        #expect(try await verifier(for: jwk).verify(second, as: DPoPPayload.self).jti != payload.jti)
    }

    @Test func deviceAccountToken() async throws {
        let token = try DeviceJWT.deviceAccountToken(
            enrollmentID: "dev_abc123", userID: "auth0|user1", issuer: issuer, key: sharedKey, lifetime: 86400)
        let payload = try await verifier(for: sharedKey.publicJWK).verify(token, as: DeviceAccountPayload.self)
        #expect(payload.iss.value == "dev_abc123")
        #expect(payload.sub.value == "auth0|user1")
        #expect(payload.aud.value == ["https://warden.example:8443/appliance-mfa/api/device-accounts"])
        #expect(payload.exp.value.timeIntervalSince(payload.iat.value) <= 7200)
        let parts = try #require(jwsParts(token))
        #expect(parts.header["typ"] as? String == "JWT")
        #expect(parts.header["kid"] == nil)
    }
}
