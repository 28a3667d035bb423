import Foundation
import Testing
import WardenWebAuthn

/// A seeded mutation fuzzer over everything the verifiers read from a client: attestation objects, authenticator
/// data, signatures, COSE keys and client data, from the W3C vectors and the tests' authenticator. Each mutant must
/// be refused or accepted without a crash, and quickly (SPEC §17: malformed or deeply nested CBOR never yields a
/// 5xx).
///
/// `WEBAUTHN_FUZZ_SECONDS` runs for that long instead of `WEBAUTHN_FUZZ_ITERATIONS` (default 3,000) mutants;
/// `WEBAUTHN_FUZZ_SEED` replays a run.
@Suite struct FuzzTests {
    /// A registration or an authentication the fuzzer starts from.
    struct Seed {
        var clientDataJSON: [UInt8]
        var challenge: [UInt8]
        /// The attestation object, or the authenticator data of an assertion.
        var response: [UInt8]
        var signature: [UInt8]?
        var credential: StoredCredential?
    }

    static func seeds() throws -> [Seed] {
        var seeds: [Seed] = []
        for vector in W3CVector.all {
            let registration = vector.registration
            seeds.append(
                Seed(
                    clientDataJSON: hex(registration.clientDataJSON), challenge: hex(registration.challenge),
                    response: hex(registration.attestationObject)))
            let object = try? AttestationObject(bytes: hex(registration.attestationObject))
            if let key = object?.authenticatorData.attestedCredentialData?.publicKey {
                let authentication = vector.authentication
                seeds.append(
                    Seed(
                        clientDataJSON: hex(authentication.clientDataJSON), challenge: hex(authentication.challenge),
                        response: hex(authentication.authenticatorData), signature: hex(authentication.signature),
                        credential: StoredCredential(publicKey: key, signCount: 0, backupEligible: false)))
            }
        }
        for algorithm in COSEAlgorithm.supported {
            let ceremony = RegistrationCeremony(algorithm)
            seeds.append(
                Seed(
                    clientDataJSON: ceremony.client.json, challenge: ceremony.client.challenge,
                    response: ceremony.attestationObject))
        }
        return seeds
    }

    /// Runs every parser and verifier a server would on `response` of `seed`; returns whether it was accepted.
    static func exercise(_ seed: Seed, response: [UInt8], clientDataJSON: [UInt8]) -> Bool {
        _ = try? CBORDecoder.decode(response)
        _ = try? COSEKey(bytes: response)
        _ = try? CollectedClientData(json: clientDataJSON)
        if let credential = seed.credential, let signature = seed.signature {
            return
                (try? AssertionVerifier(relyingParty: exampleRelyingParty).verify(
                    clientDataJSON: clientDataJSON, authenticatorData: response, signature: signature,
                    challenge: seed.challenge, requireUserVerification: false, credential: credential)) != nil
        }
        return
            (try? RegistrationVerifier(relyingParty: exampleRelyingParty).verify(
                clientDataJSON: clientDataJSON, attestationObject: response, challenge: seed.challenge,
                requireUserVerification: false)) != nil
    }

    @Test func mutantsAreRefusedQuicklyAndNeverCrash() throws {
        let environment = ProcessInfo.processInfo.environment
        let seedValue = environment["WEBAUTHN_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5745_4241_5554_484E
        let deadline = environment["WEBAUTHN_FUZZ_SECONDS"].flatMap(Double.init).map { Date() + $0 }
        let iterations = environment["WEBAUTHN_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 3_000
        var random = SplitMix64(seed: seedValue)
        let seeds = try Self.seeds()
        let corpus = seeds.map(\.response)
        let clock = ContinuousClock()
        var slowest = Duration.zero
        var accepted = 0
        var count = 0
        while deadline.map({ Date() < $0 }) ?? (count < iterations) {
            let seed = seeds[Int(random.next() % UInt64(seeds.count))]
            var response = seed.response
            var clientDataJSON = seed.clientDataJSON
            if random.next() % 8 == 0 {
                clientDataJSON = Mutator.mutate(clientDataJSON, corpus: [], using: &random)
            } else {
                response = Mutator.mutate(response, corpus: corpus, using: &random)
            }
            var passed = false
            var elapsed = clock.measure {
                passed = Self.exercise(seed, response: response, clientDataJSON: clientDataJSON)
            }
            // A stall of this shared machine is not the input's work: a mutant that seems slow is timed twice more.
            if elapsed > .milliseconds(50) {
                for _ in 0..<2 {
                    let again = clock.measure {
                        _ = Self.exercise(seed, response: response, clientDataJSON: clientDataJSON)
                    }
                    elapsed = min(elapsed, again)
                }
                print("WebAuthn fuzz: mutant \(count) of \(response.count) bytes took \(elapsed) at best")
            }
            slowest = max(slowest, elapsed)
            accepted += passed ? 1 : 0
            count += 1
        }
        print("WebAuthn fuzz: seed \(seedValue), \(count) mutants, \(accepted) accepted, slowest \(slowest)")
        #expect(slowest < .milliseconds(500), "a mutant took \(slowest) (seed \(seedValue))")
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small seeded generator, so a fuzz run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Mutations that reach the corners of a CBOR parser: bit flips, random and CBOR-head bytes, insertions, deletions,
/// truncation, repeated chunks (deep nesting) and splices from other inputs.
enum Mutator {
    /// Heads that start integers, strings, containers and special values with each argument width, indefinite
    /// lengths, tags and floats.
    static let heads: [UInt8] = [
        0x00, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1F, 0x20, 0x38, 0x3B, 0x40, 0x58, 0x59, 0x5A, 0x5B, 0x5F, 0x60,
        0x78, 0x7F, 0x80, 0x81, 0x98, 0x9B, 0x9F, 0xA0, 0xA1, 0xB8, 0xBB, 0xBF, 0xC0, 0xD8, 0xF4, 0xF5, 0xF6, 0xF7,
        0xF8, 0xF9, 0xFA, 0xFB, 0xFF,
    ]

    static func mutate(_ input: [UInt8], corpus: [[UInt8]], using random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...(random.next() % 4) {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 9 {
            case 0 where !bytes.isEmpty: bytes[position] ^= 1 << (random.next() % 8)
            case 1 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 2 where !bytes.isEmpty: bytes[position] = heads.randomElement(using: &random)!
            case 3: bytes.insert(heads.randomElement(using: &random)!, at: position)
            case 4:
                bytes.insert(
                    contentsOf: (0..<random.next() % 9).map { _ in UInt8.random(in: 0...255, using: &random) },
                    at: position)
            case 5: bytes.removeSubrange(position..<min(bytes.count, position + 1 + Int(random.next() % 16)))
            case 6: bytes.removeLast(bytes.count - position)
            case 7:
                let chunk = bytes[position..<min(bytes.count, position + 1 + Int(random.next() % 8))]
                let copies = Int(random.next() % 64)
                bytes.insert(contentsOf: Array(repeating: chunk, count: copies).joined(), at: position)
            default:
                guard let other = corpus.randomElement(using: &random), !other.isEmpty else { continue }
                let start = Int(random.next() % UInt64(other.count))
                bytes.insert(contentsOf: other[start..<min(other.count, start + Int(random.next() % 64))], at: position)
            }
        }
        return Array(bytes.prefix(CBORDecoder.maximumInputSize + 16))
    }
}
