import Crypto
import Foundation
import Testing
import WardenWebAuthn

/// The relying party of the tests and of the W3C vectors (WebAuthn §16: RP ID `example.org`).
let exampleRelyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])

/// What the client writes: the challenge it was given and the client data (§5.8.1) as a JSON object a test can
/// change member by member.
struct ClientSide {
    var challenge = randomBytes(32)
    var data: [String: Any]

    init(type: String) {
        data = ["type": type, "challenge": base64URL(challenge), "origin": "https://example.org", "crossOrigin": false]
    }

    var json: [UInt8] { Array(try! JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])) }
    var hash: [UInt8] { Array(SHA256.hash(data: json)) }
}

/// A registration ceremony (§7.1) whose every checked input is a property a test can tamper with.
struct RegistrationCeremony {
    var authenticator: SoftwareAuthenticator
    var client = ClientSide(type: "webauthn.create")
    var rpID = "example.org"
    var flags: AuthenticatorData.Flags = [.userPresent, .userVerified]
    var signCount: UInt32 = 0
    /// Replaces the authenticator's COSE_Key.
    var coseKey: [CBORMapKey: CBORValue]?
    var format: String
    /// Replaces the statement the authenticator makes (a self attestation for `packed`, empty for `none`).
    var statement: [CBORMapKey: CBORValue]?
    var algorithms = COSEAlgorithm.supported
    var requireUserVerification = true

    init(_ algorithm: COSEAlgorithm = .es256, format: String = "packed") {
        authenticator = .make(algorithm)
        self.format = format
    }

    var authenticatorData: [UInt8] {
        authenticator.authenticatorData(
            rpID: rpID, flags: flags, signCount: signCount, attested: true, coseKey: coseKey)
    }

    /// The packed self attestation statement over `authData ‖ clientDataHash` (§8.2).
    func selfAttestation(_ authData: [UInt8]) -> [CBORMapKey: CBORValue] {
        [
            "alg": .integer(Int64(authenticator.algorithm.rawValue)),
            "sig": .bytes(authenticator.sign(authData + client.hash)),
        ]
    }

    var attestationObject: [UInt8] {
        let authData = authenticatorData
        let statement = statement ?? (format == "packed" ? selfAttestation(authData) : [:])
        return CBOREncoder.encode(
            .map(["fmt": .text(format), "attStmt": .map(statement), "authData": .bytes(authData)]))
    }

    func verify(attestationObject: [UInt8]? = nil) throws(WebAuthnError) -> RegisteredCredential {
        try RegistrationVerifier(relyingParty: exampleRelyingParty).verify(
            clientDataJSON: client.json, attestationObject: attestationObject ?? self.attestationObject,
            challenge: client.challenge, algorithms: algorithms, requireUserVerification: requireUserVerification)
    }
}

/// An authentication ceremony (§7.2) with a stored credential record, every checked input a property.
struct AssertionCeremony {
    var authenticator: SoftwareAuthenticator
    /// The credential record's counter and BE.
    var storedSignCount: UInt32 = 0
    var storedBackupEligible = false
    var client = ClientSide(type: "webauthn.get")
    var rpID = "example.org"
    var flags: AuthenticatorData.Flags = [.userPresent, .userVerified]
    var signCount: UInt32 = 0
    /// Signs instead of the credential's authenticator.
    var signer: SoftwareAuthenticator?
    var requireUserVerification = true

    init(_ algorithm: COSEAlgorithm = .es256) {
        authenticator = .make(algorithm)
    }

    var authenticatorData: [UInt8] {
        authenticator.authenticatorData(rpID: rpID, flags: flags, signCount: signCount, attested: false)
    }

    var stored: StoredCredential {
        StoredCredential(
            publicKey: try! COSEKey(bytes: CBOREncoder.encode(.map(authenticator.coseKey))),
            signCount: storedSignCount, backupEligible: storedBackupEligible)
    }

    func verify(signature: [UInt8]? = nil) throws(WebAuthnError) -> VerifiedAssertion {
        let authData = authenticatorData
        return try AssertionVerifier(relyingParty: exampleRelyingParty).verify(
            clientDataJSON: client.json, authenticatorData: authData,
            signature: signature ?? (signer ?? authenticator).sign(authData + client.hash), challenge: client.challenge,
            requireUserVerification: requireUserVerification, credential: stored)
    }
}

/// Runs `body` and expects it to fail the check `code`.
func expectFailure<T>(
    _ code: WebAuthnError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) {
    let error = #expect(throws: WebAuthnError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
}
