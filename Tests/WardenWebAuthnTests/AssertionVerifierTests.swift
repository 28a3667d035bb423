import Testing
import WardenWebAuthn

/// The authentication ceremony (WebAuthn Level 3 §7.2, SPEC §17): a passing sign-in per algorithm, then one test
/// per check, each tampering with exactly the input that check reads.
@Suite struct AssertionVerifierTests {
    @Test(arguments: [COSEAlgorithm.es256, .eddsa, .rs256])
    func signsIn(_ algorithm: COSEAlgorithm) throws {
        var ceremony = AssertionCeremony(algorithm)
        ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
        ceremony.storedBackupEligible = true
        ceremony.storedSignCount = 41
        ceremony.signCount = 42
        let assertion = try ceremony.verify()
        #expect(assertion.signCount == 42)
        #expect(assertion.userVerified && assertion.backupEligible && assertion.backedUp)
    }

    @Test func typeMustBeGet() {
        var ceremony = AssertionCeremony()
        ceremony.client.data["type"] = "webauthn.create"
        expectFailure(.type) { try ceremony.verify() }
    }

    @Test func challengeMustBeTheOneSent() {
        var ceremony = AssertionCeremony()
        ceremony.client.data["challenge"] = base64URL(randomBytes(32))
        expectFailure(.challenge) { try ceremony.verify() }
    }

    @Test func challengeMustNotBeAPrefix() {
        var ceremony = AssertionCeremony()
        ceremony.client.data["challenge"] = base64URL(Array(ceremony.client.challenge.prefix(24)))
        expectFailure(.challenge) { try ceremony.verify() }
    }

    @Test func originMustBeAllowed() {
        var ceremony = AssertionCeremony()
        ceremony.client.data["origin"] = "http://example.org"
        expectFailure(.origin) { try ceremony.verify() }
    }

    @Test func crossOriginMustNotBeTrue() {
        var ceremony = AssertionCeremony()
        ceremony.client.data["crossOrigin"] = true
        expectFailure(.origin) { try ceremony.verify() }
    }

    @Test func rpIdHashMustBeTheRPID() {
        var ceremony = AssertionCeremony()
        ceremony.rpID = "sub.example.org"
        expectFailure(.rpIdHash) { try ceremony.verify() }
    }

    @Test func userPresenceIsRequired() {
        var ceremony = AssertionCeremony()
        ceremony.flags = [.userVerified]
        expectFailure(.userPresence) { try ceremony.verify() }
    }

    @Test func userVerificationIsRequiredWhenAsked() throws {
        var ceremony = AssertionCeremony()
        ceremony.flags = [.userPresent]
        expectFailure(.userVerification) { try ceremony.verify() }
        ceremony.requireUserVerification = false
        #expect(try ceremony.verify().userVerified == false)
    }

    @Test func backedUpRequiresBackupEligible() {
        var ceremony = AssertionCeremony()
        ceremony.flags = [.userPresent, .userVerified, .backedUp]
        expectFailure(.backupState) { try ceremony.verify() }
    }

    @Test func backupEligibilityMayBeGainedButNotLost() throws {
        var ceremony = AssertionCeremony()
        ceremony.flags = [.userPresent, .userVerified, .backupEligible]
        #expect(try ceremony.verify().backupEligible)
        ceremony.storedBackupEligible = true
        ceremony.flags = [.userPresent, .userVerified]
        expectFailure(.backupState) { try ceremony.verify() }
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa, .rs256])
    func signatureMustBeTheCredentialKeys(_ algorithm: COSEAlgorithm) {
        var ceremony = AssertionCeremony(algorithm)
        ceremony.signer = algorithm == .rs256 ? .make(.es256) : .make(algorithm)
        expectFailure(.signature) { try ceremony.verify() }
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa, .rs256])
    func signatureMustCoverTheClientDataHash(_ algorithm: COSEAlgorithm) {
        let ceremony = AssertionCeremony(algorithm)
        let signature = ceremony.authenticator.sign(ceremony.authenticatorData)
        expectFailure(.signature) { try ceremony.verify(signature: signature) }
    }

    @Test func signatureMustNotBeEmpty() {
        let ceremony = AssertionCeremony()
        expectFailure(.signature) { try ceremony.verify(signature: []) }
    }

    @Test func signCountMustGrow() throws {
        var ceremony = AssertionCeremony()
        ceremony.storedSignCount = 5
        ceremony.signCount = 5
        expectFailure(.signCount) { try ceremony.verify() }
        ceremony.signCount = 4
        expectFailure(.signCount) { try ceremony.verify() }
        ceremony.signCount = 0
        expectFailure(.signCount) { try ceremony.verify() }
        ceremony.signCount = 6
        #expect(try ceremony.verify().signCount == 6)
    }

    @Test func authenticatorsWithoutACounterSendZero() throws {
        let ceremony = AssertionCeremony()
        #expect(try ceremony.verify().signCount == 0)
    }

    @Test func authenticatorDataMustBeComplete() {
        let ceremony = AssertionCeremony()
        expectFailure(.malformed) {
            try AssertionVerifier(relyingParty: exampleRelyingParty).verify(
                clientDataJSON: ceremony.client.json, authenticatorData: Array(ceremony.authenticatorData.prefix(36)),
                signature: [], challenge: ceremony.client.challenge, requireUserVerification: true,
                credential: ceremony.stored)
        }
    }
}
