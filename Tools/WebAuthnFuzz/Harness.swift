// The libFuzzer entry point of scripts/fuzz-webauthn, compiled into one module with Sources/WardenWebAuthn by that
// script (no SwiftPM target: libFuzzer brings its own `main`). Each input is read by every parser of WardenWebAuthn
// and checked by both verifiers against the W3C WebAuthn Level 3 §16.2 vector ("ES256 Credential with No
// Attestation"), so mutants of that vector's attestation object and authenticator data reach every check of §7.1
// and §7.2.

private let relyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])

private let registrationClientData = Array(
    #"{"type":"webauthn.create","challenge":"AMMPt4UxxGTStncdq417YDwBFi8vpIa-pw8oOuVW4TA","origin":"https://example.org","crossOrigin":false}"#
        .utf8)
private let registrationChallenge = bytes("00c30fb78531c464d2b6771dab8d7b603c01162f2fa486bea70f283ae556e130")

private let assertionClientData = Array(
    #"{"type":"webauthn.get","challenge":"OcDnUhQXulTUPo3JUXT0I97pvzzYBP9tZchXyav01Ag","origin":"https://example.org","crossOrigin":false}"#
        .utf8)
private let assertionChallenge = bytes("39c0e7521417ba54d43e8dc95174f423dee9bf3cd804ff6d65c857c9abf4d408")
private let assertionSignature = bytes(
    "3046022100f50a4e2e4409249c4a853ba361282f09841df4dd4547a13a87780218deffcd380221008480ac0f0b93538174f575bf11a1dd5d78c6e486013f937295ea13653e331e87"
)
private let credential = StoredCredential(
    publicKey: try! COSEKey(
        bytes: bytes(
            "a5010203262001215820afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61225820930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220"
        )), signCount: 0, backupEligible: false)

private func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = try? CBORDecoder.decode(input)
    _ = try? COSEKey(bytes: input)
    _ = try? CollectedClientData(json: input)
    _ = try? RegistrationVerifier(relyingParty: relyingParty).verify(
        clientDataJSON: registrationClientData, attestationObject: input, challenge: registrationChallenge,
        requireUserVerification: false)
    _ = try? AssertionVerifier(relyingParty: relyingParty).verify(
        clientDataJSON: assertionClientData, authenticatorData: input, signature: assertionSignature,
        challenge: assertionChallenge, requireUserVerification: false, credential: credential)
    return 0
}
