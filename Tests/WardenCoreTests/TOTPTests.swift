import Foundation
import Testing
import WardenWire

/// RFC 6238 TOTP and the RFC 4226 HOTP it is built on (SPEC §12 `otp`).
@Suite("TOTP (RFC 6238)")
struct TOTPTests {
    /// The SHA-1 seed of RFC 6238 Appendix B: the ASCII bytes of "12345678901234567890".
    static let seed = Array("12345678901234567890".utf8)

    @Test(
        "RFC 6238 Appendix B, SHA-1 (8 digits)",
        arguments: [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ] as [(Int64, String)])
    func appendixB(time: Int64, expected: String) {
        let totp = TOTP(secret: Self.seed, digits: 8)
        #expect(totp.code(at: Date(timeIntervalSince1970: Double(time))) == expected)
    }

    @Test(
        "RFC 4226 Appendix D: HOTP values of counters 0 to 9 (6 digits)",
        arguments: zip(
            0..<10,
            ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        ))
    func hotpVectors(counter: Int, expected: String) {
        #expect(TOTP(secret: Self.seed).code(step: Int64(counter)) == expected)
    }

    @Test("the Base32 form of a secret gives the same codes (SPEC §7.1 totp.secret)")
    func base32Secret() throws {
        let totp = try #require(TOTP(base32Secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"))
        #expect(totp.code(step: 1) == "287082")
        #expect(TOTP(base32Secret: "gezdgnbv gy3tqojq gezdgnbv gy3tqojq")?.code(step: 1) == "287082")
        #expect(TOTP(base32Secret: "not base32!") == nil)
        #expect(TOTP(base32Secret: "") == nil)
    }

    @Test("time steps and the seconds left in one")
    func timeSteps() {
        let totp = TOTP(secret: Self.seed)
        #expect(totp.timeStep(at: Date(timeIntervalSince1970: 59)) == 1)
        #expect(totp.timeStep(at: Date(timeIntervalSince1970: 60)) == 2)
        #expect(totp.secondsRemaining(at: Date(timeIntervalSince1970: 61)) == 29)
        #expect(totp.secondsRemaining(at: Date(timeIntervalSince1970: 60)) == 30)
    }

    @Test("a code matches its own step within the window, and nothing else does")
    func matchingSteps() {
        let totp = TOTP(secret: Self.seed)
        #expect(totp.matchingSteps(of: "287082", in: 0...2) == [1])
        #expect(totp.matchingSteps(of: "287082", in: 2...4).isEmpty, "outside ±1 step")
        #expect(totp.matchingSteps(of: "28708", in: 0...2).isEmpty, "too short")
        #expect(totp.matchingSteps(of: "2870820", in: 0...2).isEmpty, "too long")
    }
}
