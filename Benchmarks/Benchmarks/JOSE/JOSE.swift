import Benchmark
import BenchmarkSupport
import Crypto
import CryptoExtras
import Foundation
import WardenCore
import WardenWire

/// JWS signing and verification (RFC 7515) per algorithm Warden signs with (SPEC §3 signing keys): a whole
/// access token through `JWSKey.sign` (header + base64url payload + signature), its verification through
/// `CompactJWS` + `JWSVerifier`, and the pure signing rate of the key alone over a SHA-256 digest (the floor
/// under every token endpoint request). With `scalingFactor: .one` each iteration is one operation.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(1)
    )

    for alg in SigningAlgorithm.allCases {
        Benchmark("sign \(alg.rawValue) access token") { benchmark, key in
            for _ in benchmark.scaledIterations {
                blackHole(try key.sign(payload: AccessTokenClaims.sample, type: "at+jwt"))
            }
        } setup: {
            try AccessTokenClaims.key(alg)
        }

        Benchmark("verify \(alg.rawValue) access token") { benchmark, setup in
            let (verifier, token) = setup
            for _ in benchmark.scaledIterations {
                let jws = try CompactJWS(parsing: token)
                precondition(jws.isSigned(by: verifier))
            }
        } setup: { () -> (JWSVerifier, String) in
            let key = try AccessTokenClaims.key(alg)
            return (key.verifier, try key.sign(payload: AccessTokenClaims.sample, type: "at+jwt"))
        }
    }

    let digest = SHA256.hash(data: Data(AccessTokenClaims.sample.utf8))
    Benchmark("pure signing ES256 (P-256 over a digest)") { benchmark, key in
        for _ in benchmark.scaledIterations {
            blackHole(try key.signature(for: digest))
        }
    } setup: {
        P256.Signing.PrivateKey()
    }
    Benchmark("pure signing RS256 (RSA-2048 PKCS#1 v1.5 over a digest)") { benchmark, key in
        for _ in benchmark.scaledIterations {
            blackHole(try key.signature(for: digest, padding: .insecurePKCS1v1_5))
        }
    } setup: {
        try _RSA.Signing.PrivateKey(keySize: .bits2048)
    }

    tokenIssuance()
}

/// Token issuance without HTTP: what `TokenIssuer.accessToken` does per client_credentials request once the
/// client is authenticated (WardenServer, not public): the current key of the algorithm from the `KeyRing`, a
/// fresh `jti`, the claims serialized, the JWS signed.
let tokenIssuance: @Sendable () -> Void = {
    for alg in [SigningAlgorithm.es256, .rs256] {
        Benchmark("issue \(alg.rawValue) access token (key ring + claims + sign)") { benchmark, ring in
            for _ in benchmark.scaledIterations {
                let key = ring.currentKey(for: alg)!
                blackHole(try key.sign(payload: AccessTokenClaims.serialized(), type: "at+jwt"))
            }
        } setup: {
            try KeyRing(records: [JWSKey.generate(alg: alg, now: Date())])
        }
    }
}
