import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/keys/signing` (SPEC §2, §9).
@Suite("Management API: signing keys")
struct ManagementSigningKeysTests {
    @Test func listShowsPublicKeysOnly() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let response = try await admin.call(.get, "keys/signing")
            #expect(!String(buffer: response.body).contains("PRIVATE"))
            let keys = try #require(response.json.arrayValue)
            // A new tenant has its RS256 key only; other algorithms get a key when first configured.
            #expect(Set(keys.compactMap { $0["alg"]?.stringValue }) == ["RS256"])
            for key in keys {
                #expect(key["current"] == true)
                #expect(key["previous"] == false)
                #expect(key["revoked"] == false)
                #expect(key["jwk"]?["d"] == nil)
                #expect(key["jwk"]?["kid"] == key["kid"])
                #expect(key["fingerprint"]?.stringValue?.count == 59)
                let cert = try #require(key["cert"]?.stringValue)
                _ = try JWSVerifier(pem: cert)
            }
            let kid = try #require(keys.first?["kid"]?.stringValue)
            #expect(try await admin.expect(.ok, .get, "keys/signing/\(kid)")["kid"] == .string(kid))
            try await admin.expectError(404, "inexistent_key", .get, "keys/signing/unknown")
        }
    }

    @Test func rotateThenRevokeThePreviousKey() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            _ = try await warden.runtime.keys.currentKey(for: .es256)
            let before = try await admin.expect(.ok, .get, "keys/signing")
            let oldRS = try #require(before.arrayValue?.first { $0["alg"] == "RS256" }?["kid"]?.stringValue)
            let rotated = try await admin.expect(.created, .post, "keys/signing/rotate")
            #expect(rotated["alg"] == "RS256")
            #expect(rotated["current"] == true)
            #expect(rotated["cert"] != nil)
            #expect(rotated["keys"]?.strings("alg").sorted() == ["ES256", "RS256"])
            let newRS = try #require(rotated["kid"]?.stringValue)
            #expect(warden.runtime.keys.ring.currentKey(for: .rs256)?.kid == newRS)

            let old = try await admin.expect(.ok, .get, "keys/signing/\(oldRS)")
            #expect(old["current"] == false)
            #expect(old["previous"] == true)
            #expect(warden.runtime.keys.ring.publishedKey(kid: oldRS) != nil)

            let message = try await admin.expectError(409, "conflict", .put, "keys/signing/\(newRS)/revoke")
            #expect(message.contains("current"))
            try await admin.expectError(404, "inexistent_key", .put, "keys/signing/unknown/revoke")
            let revoked = try await admin.expect(.ok, .put, "keys/signing/\(oldRS)/revoke")
            #expect(revoked["revoked"] == true)
            #expect(revoked["previous"] == false)
            #expect(revoked["revoked_at"]?.stringValue != nil)
            #expect(warden.runtime.keys.ring.publishedKey(kid: oldRS) == nil)

            // The token in use was signed by the revoked key; a new one is signed by the new current key.
            try await admin.expectError(401, "invalid_token", .get, "keys/signing")
            let fresh = try await ManagementSession.make(warden, admin.http)
            #expect(try await fresh.expect(.ok, .get, "keys/signing/\(oldRS)")["revoked"] == true)
        }
    }
}
