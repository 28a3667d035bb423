import Crypto
import CryptoExtras
import Foundation
import Testing
import WardenWebAuthn

/// The registration ceremony (WebAuthn Level 3 §7.1, SPEC §17): a passing ceremony per algorithm and format, then
/// one test per check, each tampering with exactly the input that check reads.
@Suite struct RegistrationVerifierTests {
    @Test(arguments: [COSEAlgorithm.es256, .eddsa, .rs256], ["none", "packed"])
    func registers(_ algorithm: COSEAlgorithm, format: String) throws {
        var ceremony = RegistrationCeremony(algorithm, format: format)
        ceremony.signCount = 7
        ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
        let credential = try ceremony.verify()
        #expect(credential.id == ceremony.authenticator.credentialID)
        #expect(credential.publicKey.algorithm == algorithm)
        #expect(credential.publicKey.bytes == CBOREncoder.encode(.map(ceremony.authenticator.coseKey)))
        #expect(try COSEKey(bytes: credential.publicKey.bytes) == credential.publicKey)
        #expect(withUnsafeBytes(of: credential.aaguid.uuid) { Array($0) } == ceremony.authenticator.aaguid)
        #expect(credential.signCount == 7)
        #expect(credential.userVerified && credential.backupEligible && credential.backedUp)
        #expect(credential.attestation == (format == "none" ? .none : .selfAttestation))
    }

    @Test func typeMustBeCreate() {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["type"] = "webauthn.get"
        expectFailure(.type) { try ceremony.verify() }
    }

    @Test func challengeMustBeTheOneSent() {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["challenge"] = base64URL(randomBytes(32))
        expectFailure(.challenge) { try ceremony.verify() }
    }

    @Test func challengeIsComparedAsItsBase64URLEncoding() {
        var ceremony = RegistrationCeremony()
        // The same bytes in padded standard base64 are not the base64url encoding the client must write.
        ceremony.client.data["challenge"] = Data(ceremony.client.challenge).base64EncodedString()
        expectFailure(.challenge) { try ceremony.verify() }
    }

    @Test func originMustBeAllowed() {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["origin"] = "https://example.org.evil.example"
        expectFailure(.origin) { try ceremony.verify() }
    }

    @Test func crossOriginMustNotBeTrue() {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["crossOrigin"] = true
        expectFailure(.origin) { try ceremony.verify() }
    }

    @Test func topOriginMustBeAbsent() {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["topOrigin"] = "https://example.com"
        expectFailure(.origin) { try ceremony.verify() }
    }

    @Test func clientDataWithoutCrossOriginIsAccepted() throws {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["crossOrigin"] = nil
        _ = try ceremony.verify()
    }

    @Test func rpIdHashMustBeTheRPID() {
        var ceremony = RegistrationCeremony()
        ceremony.rpID = "evil.example"
        expectFailure(.rpIdHash) { try ceremony.verify() }
    }

    @Test func userPresenceIsRequired() {
        var ceremony = RegistrationCeremony()
        ceremony.flags = [.userVerified]
        expectFailure(.userPresence) { try ceremony.verify() }
    }

    @Test func userVerificationIsRequiredWhenAsked() throws {
        var ceremony = RegistrationCeremony()
        ceremony.flags = [.userPresent]
        expectFailure(.userVerification) { try ceremony.verify() }
        ceremony.requireUserVerification = false
        #expect(try ceremony.verify().userVerified == false)
    }

    @Test func backedUpRequiresBackupEligible() {
        var ceremony = RegistrationCeremony()
        ceremony.flags = [.userPresent, .userVerified, .backedUp]
        expectFailure(.backupState) { try ceremony.verify() }
    }

    @Test func algorithmMustBeOffered() {
        var ceremony = RegistrationCeremony(.eddsa)
        ceremony.algorithms = [.es256, .rs256]
        expectFailure(.algorithm) { try ceremony.verify() }
    }

    @Test func algorithmMustBeSupported() {
        var ceremony = RegistrationCeremony()
        ceremony.coseKey = ceremony.authenticator.coseKey.merging([3: .integer(-35), -1: .integer(2)]) { $1 }
        ceremony.statement = [:]
        ceremony.format = "none"
        expectFailure(.algorithm) { try ceremony.verify() }
    }

    @Test func keyTypeMustFitTheAlgorithm() {
        var ceremony = RegistrationCeremony(format: "none")
        ceremony.coseKey = ceremony.authenticator.coseKey.merging([1: .integer(1)]) { $1 }
        expectFailure(.algorithm) { try ceremony.verify() }
        ceremony.coseKey = ceremony.authenticator.coseKey.merging([-1: .integer(2)]) { $1 }
        expectFailure(.algorithm) { try ceremony.verify() }
    }

    @Test func keyMustNameItsAlgorithm() {
        var ceremony = RegistrationCeremony(format: "none")
        ceremony.coseKey = ceremony.authenticator.coseKey.filter { $0.key != 3 }
        expectFailure(.algorithm) { try ceremony.verify() }
    }

    @Test func keyMustBeAValidPoint() {
        var ceremony = RegistrationCeremony(format: "none")
        ceremony.coseKey = ceremony.authenticator.coseKey.merging([-3: .bytes([UInt8](repeating: 1, count: 32))]) {
            $1
        }
        expectFailure(.malformed) { try ceremony.verify() }
    }

    @Test func rsaKeysUnder2048BitsAreRefused() throws {
        var ceremony = RegistrationCeremony(.rs256, format: "none")
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).publicKey.getKeyPrimitives()
        ceremony.coseKey = ceremony.authenticator.coseKey.merging([-1: .bytes(Array(small.modulus))]) { $1 }
        expectFailure(.malformed) { try ceremony.verify() }
    }

    @Test func packedSelfAttestationSignatureMustVerify() {
        var ceremony = RegistrationCeremony()
        let other = SoftwareAuthenticator.make(.es256)
        ceremony.statement = ["alg": .integer(-7), "sig": .bytes(other.sign(ceremony.authenticatorData))]
        expectFailure(.attestation) { try ceremony.verify() }
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa, .rs256])
    func packedSelfAttestationMustSignTheClientData(_ algorithm: COSEAlgorithm) {
        var ceremony = RegistrationCeremony(algorithm)
        // Signed over the authenticator data alone, without the client data hash.
        ceremony.statement = [
            "alg": .integer(Int64(algorithm.rawValue)),
            "sig": .bytes(ceremony.authenticator.sign(ceremony.authenticatorData)),
        ]
        expectFailure(.attestation) { try ceremony.verify() }
    }

    @Test func packedSelfAttestationAlgorithmMustBeTheKeys() {
        var ceremony = RegistrationCeremony()
        ceremony.statement = ceremony.selfAttestation(ceremony.authenticatorData).merging(["alg": .integer(-257)]) {
            $1
        }
        expectFailure(.attestation) { try ceremony.verify() }
    }

    @Test func packedStatementNeedsAlgAndSig() {
        var ceremony = RegistrationCeremony()
        ceremony.statement = ["alg": .integer(-7)]
        expectFailure(.attestation) { try ceremony.verify() }
    }

    @Test func noneStatementMustBeEmpty() {
        var ceremony = RegistrationCeremony(format: "none")
        ceremony.statement = ["sig": .bytes([1])]
        expectFailure(.attestation) { try ceremony.verify() }
    }

    @Test func unknownFormatsAreRefused() {
        var ceremony = RegistrationCeremony(format: "Packed")
        ceremony.statement = [:]
        expectFailure(.attestation) { try ceremony.verify() }
    }

    /// SPEC §17: a `packed` statement with `x5c`, or another registered format, is taken as unattested and its
    /// statement is not checked (here it holds a signature that would not verify).
    @Test(arguments: ["packed", "fido-u2f", "tpm", "android-key", "android-safetynet", "apple", "compound"])
    func certificateAttestationIsTakenUnverified(_ format: String) throws {
        var ceremony = RegistrationCeremony(format: format)
        ceremony.statement = [
            "alg": .integer(-7), "sig": .bytes([0x30, 0x00]), "x5c": .array([.bytes([0x30, 0x00])]),
        ]
        #expect(try ceremony.verify().attestation == .unverified(format: format))
    }

    @Test func credentialIDOf1023BytesIsAccepted() throws {
        var ceremony = RegistrationCeremony()
        ceremony.authenticator.credentialID = randomBytes(1023)
        #expect(try ceremony.verify().id.count == 1023)
    }

    @Test func credentialIDOver1023BytesIsRefused() {
        var ceremony = RegistrationCeremony()
        ceremony.authenticator.credentialID = randomBytes(1024)
        expectFailure(.credential) { try ceremony.verify() }
    }

    @Test func attestedCredentialDataIsRequired() {
        let ceremony = RegistrationCeremony(format: "none")
        let authData = ceremony.authenticator.authenticatorData(
            rpID: "example.org", flags: [.userPresent, .userVerified], signCount: 0, attested: false)
        let object = CBOREncoder.encode(
            .map(["fmt": .text("none"), "attStmt": .map([:]), "authData": .bytes(authData)]))
        expectFailure(.credential) { try ceremony.verify(attestationObject: object) }
    }

    @Test func clientDataMustBeJSON() {
        let ceremony = RegistrationCeremony()
        expectFailure(.malformed) {
            try RegistrationVerifier(relyingParty: exampleRelyingParty).verify(
                clientDataJSON: Array("not json".utf8), attestationObject: ceremony.attestationObject,
                challenge: ceremony.client.challenge, requireUserVerification: true)
        }
    }

    @Test func clientDataMembersMustBeStrings() {
        var ceremony = RegistrationCeremony()
        ceremony.client.data["origin"] = 42
        expectFailure(.malformed) { try ceremony.verify() }
    }

    @Test func clientDataMayStartWithAByteOrderMark() throws {
        let ceremony = RegistrationCeremony(format: "none")
        _ = try RegistrationVerifier(relyingParty: exampleRelyingParty).verify(
            clientDataJSON: [0xEF, 0xBB, 0xBF] + ceremony.client.json, attestationObject: ceremony.attestationObject,
            challenge: ceremony.client.challenge, requireUserVerification: true)
    }

    @Test func attestationObjectMustHaveNoTrailingBytes() {
        let ceremony = RegistrationCeremony()
        expectFailure(.malformed) { try ceremony.verify(attestationObject: ceremony.attestationObject + [0x00]) }
    }

    @Test func attestationObjectNeedsItsThreeMembers() {
        let ceremony = RegistrationCeremony()
        let object = CBOREncoder.encode(.map(["fmt": .text("none"), "authData": .bytes(ceremony.authenticatorData)]))
        expectFailure(.malformed) { try ceremony.verify(attestationObject: object) }
    }

    @Test func authenticatorDataMustHaveNoTrailingBytes() {
        let ceremony = RegistrationCeremony(format: "none")
        let authData = ceremony.authenticatorData + [0x00]
        let object = CBOREncoder.encode(
            .map(["fmt": .text("none"), "attStmt": .map([:]), "authData": .bytes(authData)]))
        expectFailure(.malformed) { try ceremony.verify(attestationObject: object) }
    }

    @Test func authenticatorDataExtensionsAreRead() throws {
        var ceremony = RegistrationCeremony(format: "none")
        ceremony.flags = [.userPresent, .userVerified, .extensionData]
        let extensions = CBOREncoder.encode(.map(["credProtect": .integer(2)]))
        let authData = ceremony.authenticatorData + extensions
        let object = CBOREncoder.encode(
            .map(["fmt": .text("none"), "attStmt": .map([:]), "authData": .bytes(authData)]))
        _ = try ceremony.verify(attestationObject: object)
        #expect(try AttestationObject(bytes: object).authenticatorData.extensions == ["credProtect": .integer(2)])
        expectFailure(.malformed) { try ceremony.verify() }  // ED set, no extensions
    }
}
