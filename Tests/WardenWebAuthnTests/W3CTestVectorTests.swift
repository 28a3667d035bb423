import Foundation
import Testing
import WardenWebAuthn

/// A registration and authentication pair of WebAuthn Level 3 §16 "Test Vectors", as published (RP ID
/// `example.org`, origin `https://example.org`); Resources/w3c-test-vectors.json holds them all.
struct W3CVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Registration: Decodable, Sendable {
        let challenge: String
        let clientDataJSON: String
        let attestationObject: String
    }

    struct Authentication: Decodable, Sendable {
        let challenge: String
        let clientDataJSON: String
        let authenticatorData: String
        let signature: String
    }

    let name: String
    let section: String
    let title: String
    let credentialId: String
    let aaguid: String
    let registration: Registration
    let authentication: Authentication

    var testDescription: String { "§\(section) \(name)" }

    static let all: [W3CVector] = {
        struct File: Decodable { let vectors: [W3CVector] }
        let url = Bundle.module.url(forResource: "w3c-test-vectors", withExtension: "json")!
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try! decoder.decode(File.self, from: Data(contentsOf: url)).vectors
    }()

    func register() throws(WebAuthnError) -> RegisteredCredential {
        try RegistrationVerifier(relyingParty: exampleRelyingParty).verify(
            clientDataJSON: hex(registration.clientDataJSON), attestationObject: hex(registration.attestationObject),
            challenge: hex(registration.challenge), requireUserVerification: false)
    }

    func authenticate(_ credential: StoredCredential, signature: [UInt8]? = nil) throws(WebAuthnError)
        -> VerifiedAssertion
    {
        try AssertionVerifier(relyingParty: exampleRelyingParty).verify(
            clientDataJSON: hex(authentication.clientDataJSON),
            authenticatorData: hex(authentication.authenticatorData),
            signature: signature ?? hex(authentication.signature), challenge: hex(authentication.challenge),
            requireUserVerification: false, credential: credential)
    }
}

/// The W3C WebAuthn Level 3 §16 test vectors: each registration gives the outcome SPEC §17 requires, and each
/// credential that registers signs in with the published assertion.
@Suite struct W3CTestVectorTests {
    /// What SPEC §17 makes of a vector's registration.
    enum Outcome {
        case success(AttestationObject.Attestation)
        case failure(WebAuthnError.Code)
    }

    static let expected: [String: Outcome] = [
        "none-es256": .success(.none),
        "packed-self-es256": .success(.selfAttestation),
        "none-es256-crossOrigin": .failure(.origin),
        "none-es256-topOrigin": .failure(.origin),
        "none-es256-long-credential-id": .success(.none),
        "packed-es256": .success(.unverified(format: "packed")),
        "packed-es384": .failure(.algorithm),
        "packed-es512": .failure(.algorithm),
        "packed-rs256": .success(.unverified(format: "packed")),
        "packed-eddsa": .success(.unverified(format: "packed")),
        "packed-ed448": .failure(.algorithm),
        "tpm-es256": .success(.unverified(format: "tpm")),
        "android-key-es256": .success(.unverified(format: "android-key")),
        "apple-es256": .success(.unverified(format: "apple")),
        "fido-u2f-es256": .success(.unverified(format: "fido-u2f")),
    ]

    @Test func everyPublishedVectorIsCovered() {
        #expect(Set(W3CVector.all.map(\.name)) == Set(Self.expected.keys))
    }

    @Test(arguments: W3CVector.all)
    func registration(_ vector: W3CVector) throws {
        switch try #require(Self.expected[vector.name]) {
        case .success(let attestation):
            let credential = try vector.register()
            #expect(credential.attestation == attestation)
            #expect(credential.id == hex(vector.credentialId))
            #expect(withUnsafeBytes(of: credential.aaguid.uuid) { Array($0) } == hex(vector.aaguid))
        case .failure(let code):
            expectFailure(code) { try vector.register() }
        }
    }

    static func stored(_ credential: RegisteredCredential) throws(WebAuthnError) -> StoredCredential {
        StoredCredential(
            publicKey: try COSEKey(bytes: credential.publicKey.bytes), signCount: credential.signCount,
            backupEligible: credential.backupEligible)
    }

    @Test(arguments: W3CVector.all.filter { if case .success = expected[$0.name] { true } else { false } })
    func authentication(_ vector: W3CVector) throws {
        let credential = try vector.register()
        let assertion = try vector.authenticate(Self.stored(credential))
        #expect(assertion.signCount == 0)
        #expect(assertion.backupEligible == credential.backupEligible)
    }

    /// The framed vectors' assertions fail the origin check too, with the key their registration carries.
    @Test(arguments: W3CVector.all.filter { $0.name.hasSuffix("Origin") })
    func framedAuthentication(_ vector: W3CVector) throws {
        let object = try AttestationObject(bytes: hex(vector.registration.attestationObject))
        let key = try #require(object.authenticatorData.attestedCredentialData?.publicKey)
        let stored = StoredCredential(publicKey: key, signCount: 0, backupEligible: false)
        expectFailure(.origin) { try vector.authenticate(stored) }
    }

    @Test(arguments: ["packed-self-es256", "packed-rs256", "packed-eddsa"])
    func tamperedSignatureFails(_ name: String) throws {
        let vector = try #require(W3CVector.all.first { $0.name == name })
        let credential = try vector.register()
        var signature = hex(vector.authentication.signature)
        signature[signature.count - 1] ^= 0x01
        expectFailure(.signature) { try vector.authenticate(Self.stored(credential), signature: signature) }
    }
}
