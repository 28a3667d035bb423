import Benchmark
import Crypto
import Foundation
import WardenWebAuthn

/// The relying party's side of a passkey per algorithm (SPEC §17): verifying a registration (WebAuthn Level 3 §7.1,
/// attestation `none`) and a sign-in (§7.2, UV required) as the server does per ceremony, from the bytes a browser
/// sends. The inputs are built once in setup by a software authenticator and checked to verify, so every iteration
/// measures the success path. With `scalingFactor: .one` each iteration is one operation.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(1)
    )

    for (algorithm, name) in [(COSEAlgorithm.es256, "ES256"), (.rs256, "RS256"), (.eddsa, "EdDSA")] {
        Benchmark("verify registration \(name) (§7.1, attestation none)") { benchmark, registration in
            for _ in benchmark.scaledIterations {
                blackHole(try registration.verify())
            }
        } setup: {
            try Registration(algorithm)
        }

        Benchmark("verify assertion \(name) (§7.2, UV required)") { benchmark, assertion in
            for _ in benchmark.scaledIterations {
                blackHole(try assertion.verify())
            }
        } setup: {
            try Assertion(algorithm)
        }
    }
}

/// The relying party of the benchmarks: an issuer's host as RP ID, its origin allowed (SPEC §17's defaults).
let relyingParty = RelyingParty(id: "id.example.com", origins: ["https://id.example.com"])

/// `clientDataJSON` as a browser writes it (WebAuthn Level 3 §5.8.1.1): `type`, the challenge in unpadded base64url,
/// `origin`, `crossOrigin`, in that order.
func collectedClientData(type: String, challenge: [UInt8]) -> [UInt8] {
    let encoded = Data(challenge).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    let origin = "https://\(relyingParty.id)"
    return Array(
        #"{"type":"\#(type)","challenge":"\#(encoded)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
}

/// What a registration ceremony (WebAuthn Level 3 §7.1) hands the server: the challenge it sent, and the
/// `clientDataJSON` and attestation object (§6.5.4: `fmt` `none`, an empty `attStmt`, authenticator data with UP, UV,
/// AT and a new credential's COSE_Key) of the `AuthenticatorAttestationResponse`.
struct Registration: Sendable {
    let verifier = RegistrationVerifier(relyingParty: relyingParty)
    let challenge: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    let clientDataJSON: [UInt8]
    let attestationObject: [UInt8]

    /// A registration by a new authenticator of `algorithm`, verified once: setup stops if it does not verify.
    init(_ algorithm: COSEAlgorithm) throws {
        let authenticator = try SoftwareAuthenticator(algorithm)
        clientDataJSON = collectedClientData(type: "webauthn.create", challenge: challenge)
        let authenticatorData = authenticator.authenticatorData(rpID: relyingParty.id, signCount: 0, attested: true)
        attestationObject = CBOREncoder.encode(
            .map(["fmt": .text("none"), "attStmt": .map([:]), "authData": .bytes(authenticatorData)]))
        do {
            let credential = try verify()
            precondition(
                credential.publicKey.algorithm == algorithm && credential.id == authenticator.credentialID
                    && credential.attestation == .none && credential.userVerified)
        } catch {
            preconditionFailure("the \(algorithm) registration does not verify: \(error)")
        }
    }

    /// `RegistrationVerifier.verify`, UV required as for passkeys (SPEC §17), every supported algorithm offered.
    func verify() throws(WebAuthnError) -> RegisteredCredential {
        try verifier.verify(
            clientDataJSON: clientDataJSON, attestationObject: attestationObject, challenge: challenge,
            requireUserVerification: true)
    }
}

/// What an authentication ceremony (WebAuthn Level 3 §7.2) hands the server: the challenge it sent, the stored
/// credential record, and the `clientDataJSON`, authenticator data (UP, UV, a counter one above the stored one) and
/// signature over `authenticatorData ‖ SHA-256(clientDataJSON)` of the `AuthenticatorAssertionResponse`.
struct Assertion: Sendable {
    let verifier = AssertionVerifier(relyingParty: relyingParty)
    let challenge: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    let clientDataJSON: [UInt8]
    let authenticatorData: [UInt8]
    let signature: [UInt8]
    /// The credential record, its COSE_Key read once: the benchmark times the checks, not reading the key.
    let credential: StoredCredential

    /// A sign-in with a credential of `algorithm`, verified once: setup stops if it does not verify.
    init(_ algorithm: COSEAlgorithm) throws {
        let authenticator = try SoftwareAuthenticator(algorithm)
        credential = StoredCredential(
            publicKey: try COSEKey(bytes: authenticator.coseKey), signCount: 41, backupEligible: false)
        clientDataJSON = collectedClientData(type: "webauthn.get", challenge: challenge)
        authenticatorData = authenticator.authenticatorData(rpID: relyingParty.id, signCount: 42, attested: false)
        signature = try authenticator.sign(authenticatorData + Array(SHA256.hash(data: clientDataJSON)))
        do {
            let verified = try verify()
            precondition(verified.signCount == 42 && verified.userVerified)
        } catch {
            preconditionFailure("the \(algorithm) assertion does not verify: \(error)")
        }
    }

    /// `AssertionVerifier.verify`, UV required as for a passkey sign-in (SPEC §17).
    func verify() throws(WebAuthnError) -> VerifiedAssertion {
        try verifier.verify(
            clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
            challenge: challenge, requireUserVerification: true, credential: credential)
    }
}
