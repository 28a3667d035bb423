import Foundation
import Testing
import WardenCore
import WardenWire

/// SPEC §15 "Upstream tokens": kept tokens are sealed with AES-GCM under `WARDEN_DATA_KEY`, bound to their row.
@Suite("DataKeySealer (SPEC §15)")
struct DataKeySealerTests {
    private let key = (0..<32).map { UInt8($0) }

    @Test("Seals and opens; a wrong key, context or a flipped byte opens nothing")
    func roundTrip() throws {
        let sealer = try #require(DataKeySealer(key: key))
        let sealed = try sealer.seal(Array("access-token".utf8), context: "row-1")
        #expect(sealed.hasPrefix("v1.") && !sealed.contains("access-token"))
        #expect(sealer.open(sealed, context: "row-1") == Array("access-token".utf8))
        #expect(sealer.open(sealed, context: "row-2") == nil, "a value copied to another row does not open")
        let other = try #require(DataKeySealer(key: key.reversed()))
        #expect(other.open(sealed, context: "row-1") == nil)
        var bytes = Array(sealed.utf8)
        bytes[bytes.count - 3] = bytes[bytes.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(sealer.open(String(decoding: bytes, as: UTF8.self), context: "row-1") == nil)
        #expect(sealer.open("v2." + sealed.dropFirst(3), context: "row-1") == nil)
        #expect(sealer.open("v1.!!", context: "row-1") == nil)
    }

    @Test("Two seals of the same tokens differ (a fresh nonce each time)")
    func freshNonce() throws {
        let sealer = try #require(DataKeySealer(key: key))
        #expect(try sealer.seal([1, 2, 3], context: "c") != sealer.seal([1, 2, 3], context: "c"))
    }

    @Test("Only a 32-byte key makes a sealer")
    func keyLength() {
        #expect(DataKeySealer(key: Array(repeating: 1, count: 16)) == nil)
        #expect(DataKeySealer(key: Array(repeating: 1, count: 33)) == nil)
    }

    @Test("A token response's tokens, and the members identities[] shows")
    func tokenSet() {
        let set = UpstreamTokenSet(tokenResponse: [
            "access_token": "at", "refresh_token": "rt", "id_token": "it", "expires_in": 3600, "token_type": "Bearer",
        ])
        #expect(set == UpstreamTokenSet(accessToken: "at", refreshToken: "rt", idToken: "it", expiresIn: 3600))
        #expect(set.identityMembers == ["access_token": "at", "refresh_token": "rt", "expires_in": 3600])
    }
}
