import Foundation
import Testing
import WardenAuthenticator
import WardenWire

/// The codes of an enrollment's TOTP secret (RFC 6238; the `otp` factor of SPEC §12).
@Suite struct TOTPCodeTests {
    /// The seeds of RFC 6238 Appendix B, Base32-encoded as SPEC §7.1 `totp.secret` carries a secret: the ASCII
    /// digits "1234567890" repeated to 20 bytes (SHA-1), 32 bytes (SHA-256) and 64 bytes (SHA-512).
    static func secret(_ algorithm: TOTPAlgorithm) -> String {
        let length = [TOTPAlgorithm.sha1: 20, .sha256: 32, .sha512: 64][algorithm]!
        return Base32.encode(Array(String(repeating: "1234567890", count: 7).utf8.prefix(length)))
    }

    @Test(
        "RFC 6238 Appendix B (8 digits, 30 s)",
        arguments: [
            (59, .sha1, "94287082"), (59, .sha256, "46119246"), (59, .sha512, "90693936"),
            (1_111_111_109, .sha1, "07081804"), (1_111_111_109, .sha256, "68084774"),
            (1_111_111_109, .sha512, "25091201"),
            (1_111_111_111, .sha1, "14050471"), (1_111_111_111, .sha256, "67062674"),
            (1_111_111_111, .sha512, "99943326"),
            (1_234_567_890, .sha1, "89005924"), (1_234_567_890, .sha256, "91819424"),
            (1_234_567_890, .sha512, "93441116"),
            (2_000_000_000, .sha1, "69279037"), (2_000_000_000, .sha256, "90698825"),
            (2_000_000_000, .sha512, "38618901"),
            (20_000_000_000, .sha1, "65353130"), (20_000_000_000, .sha256, "77737706"),
            (20_000_000_000, .sha512, "47863826"),
        ] as [(Int64, TOTPAlgorithm, String)])
    func appendixB(time: Int64, algorithm: TOTPAlgorithm, expected: String) throws {
        let parameters = TOTPParameters(secret: Self.secret(algorithm), algorithm: algorithm, digits: 8, period: 30)
        #expect(try parameters.code(at: Date(timeIntervalSince1970: Double(time))).code == expected)
    }

    @Test func theSecondsLeftAndTheEndOfTheStep() throws {
        let parameters = TOTPParameters(secret: Self.secret(.sha1))
        let first = try parameters.code(at: Date(timeIntervalSince1970: 59))
        #expect(first == TOTPCode(code: "287082", secondsRemaining: 1, validUntil: Date(timeIntervalSince1970: 60)))
        let next = try parameters.code(at: Date(timeIntervalSince1970: 60.5))
        #expect(next.secondsRemaining == 30)
        #expect(next.validUntil == Date(timeIntervalSince1970: 90))
        #expect(next.code == "359152", "RFC 4226 Appendix D, counter 2")
    }

    @Test(
        "parameters that cannot compute codes throw invalidTOTP",
        arguments: [
            TOTPParameters(secret: "not base32!"), TOTPParameters(secret: ""),
            TOTPParameters(secret: "JBSWY3DPEHPK3PXP", algorithm: TOTPAlgorithm(rawValue: "md5")),
            TOTPParameters(secret: "JBSWY3DPEHPK3PXP", digits: 5),
            TOTPParameters(secret: "JBSWY3DPEHPK3PXP", digits: 10),
            TOTPParameters(secret: "JBSWY3DPEHPK3PXP", period: 0),
        ])
    func invalidParameters(_ parameters: TOTPParameters) {
        #expect(throws: AuthenticatorError(kind: .invalidTOTP)) { try parameters.code() }
    }

    @Test func theAlgorithmDecodesInAnyCaseAndDefaultsToSHA1() throws {
        let decoded = try JSONDecoder().decode(
            [TOTPParameters].self, from: Data(#"[{"secret": "A", "algorithm": "SHA256"}, {"secret": "B"}]"#.utf8))
        #expect(decoded.map(\.algorithm) == [.sha256, .sha1])
        #expect(decoded[1] == TOTPParameters(secret: "B", algorithm: .sha1, digits: 6, period: 30))
        let encoded = try JSONEncoder().encode(decoded[0])
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""algorithm":"sha256""#))
    }
}
