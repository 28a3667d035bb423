public import Foundation
public import WardenCore
import WardenWire

/// The claims of a client_credentials access token as Warden's `TokenIssuer.accessToken` makes them
/// (RFC 9068 §2.2): shared by the token issuance benchmark and the ceiling server, so both do the work Warden
/// does per token.
public enum AccessTokenClaims {
    /// The serialized claims of a token issued now, with a fresh `jti`.
    public static func serialized(now: Date = Date()) -> String {
        let now = Int(now.timeIntervalSince1970)
        return JSONValue.serializedObject([
            ("iss", .string("https://warden.example.com/")),
            ("sub", .string("kZ1x4wq9Vb2c7Dn0Pf6hJs3L@clients")),
            ("aud", .string("https://api.example.com")),
            ("iat", .number(Double(now))),
            ("exp", .number(Double(now + 86_400))),
            ("jti", .string(RandomToken.make(bytes: 16))),
            ("scope", .string(["read:balance", "transfer:funds"].joined(separator: " "))),
            ("client_id", .string("kZ1x4wq9Vb2c7Dn0Pf6hJs3L")),
            ("azp", .string("kZ1x4wq9Vb2c7Dn0Pf6hJs3L")),
        ])
    }

    /// One fixed token's claims, for benchmarks that sign or verify the same payload each time.
    public static let sample = serialized(now: Date(timeIntervalSince1970: 1_795_600_000))

    /// A new key of `alg` (RSA keys are 2048-bit, as Warden's).
    public static func key(_ alg: SigningAlgorithm) throws -> JWSKey {
        try JWSKey(record: JWSKey.generate(alg: alg, now: Date()))
    }
}
