import Crypto
import Foundation
import Testing
import WardenCore
import WardenWire

/// `UpstreamIDTokenValidator`: OIDC Core §3.1.3.7 on an upstream's ID token (SPEC §15 "Sign-in"). Each test
/// changes exactly one input of an otherwise valid token signed with a key generated here.
@Suite struct UpstreamIDTokenValidatorTests {
    static let keys: [SigningAlgorithm: JWSKey] = Dictionary(
        uniqueKeysWithValues: SigningAlgorithm.allCases.map { alg in
            (alg, try! JWSKey(record: JWSKey.generate(alg: alg, now: Date())))
        })
    static let otherES256 = try! JWSKey(record: JWSKey.generate(alg: .es256, now: Date()))
    static let issuer = "https://idp.example.com/"
    static let clientID = "warden-at-idp"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let claims: [String: JSONValue] = [
        "iss": .string(issuer), "sub": "248289761001", "aud": .string(clientID), "exp": 1_800_000_600,
        "iat": 1_800_000_000, "nonce": "n-0S6_WzA2Mj", "email": "jane@acme.example",
    ]
    static let validator = UpstreamIDTokenValidator(issuer: issuer, clientID: clientID, now: now)

    static func jwks(_ keys: [JWSKey]) -> JSONValue {
        ["keys": .array(keys.map(\.publicJWK.jsonValue))]
    }

    static let allKeys = jwks(SigningAlgorithm.allCases.map { keys[$0]! })

    static func encode(_ value: JSONValue) -> String {
        Base64URL.encode(value.serialized.utf8)
    }

    /// A token signed by `key`, by default with the header `{"alg", "kid", "typ"}` of the key.
    static func token(
        _ claims: [String: JSONValue] = Self.claims, key: KeyChoice = .alg(.es256), header: JSONValue? = nil
    ) -> String {
        let key = key.key
        let header = header ?? ["alg": .string(key.alg.rawValue), "kid": .string(key.kid), "typ": "JWT"]
        return try! key.sign(payload: JSONValue.object(claims).serialized, encodedHeader: encode(header))
    }

    enum KeyChoice {
        case alg(SigningAlgorithm)
        case other
        var key: JWSKey {
            switch self {
            case .alg(let alg): UpstreamIDTokenValidatorTests.keys[alg]!
            case .other: UpstreamIDTokenValidatorTests.otherES256
            }
        }
    }

    func check(
        _ token: String, jwks: JSONValue = Self.allKeys, nonce: String? = "n-0S6_WzA2Mj",
        validator: UpstreamIDTokenValidator = Self.validator
    ) -> UpstreamIDTokenError.Code? {
        do {
            _ = try validator.validate(token, jwks: jwks, nonce: nonce)
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func aValidTokenOfEachAlgorithmGivesItsClaims(alg: SigningAlgorithm) throws {
        let claims = try Self.validator.validate(Self.token(key: .alg(alg)), jwks: Self.allKeys, nonce: "n-0S6_WzA2Mj")
        #expect(claims == Self.claims)
    }

    /// One claim changed from the valid token; `nil` means the token is still accepted.
    struct ClaimCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let change: @Sendable (inout [String: JSONValue]) -> Void
        let expected: UpstreamIDTokenError.Code?
        init(
            _ name: String, _ expected: UpstreamIDTokenError.Code?,
            _ change: @escaping @Sendable (inout [String: JSONValue]) -> Void
        ) {
            testDescription = name
            self.expected = expected
            self.change = change
        }
    }

    static let claimCases: [ClaimCase] = [
        ClaimCase("another issuer", .iss) { $0["iss"] = "https://evil.example.com/" },
        ClaimCase("the issuer without its trailing slash", .iss) { $0["iss"] = "https://idp.example.com" },
        ClaimCase("no iss", .iss) { $0["iss"] = nil },
        ClaimCase("aud without the client", .aud) { $0["aud"] = "someone-else" },
        ClaimCase("no aud", .aud) { $0["aud"] = nil },
        ClaimCase("aud array with the client only", nil) { $0["aud"] = [.string(clientID)] },
        ClaimCase("several aud without azp", .azp) { $0["aud"] = [.string(clientID), "someone-else"] },
        ClaimCase("several aud with azp the client", nil) {
            $0["aud"] = [.string(clientID), "someone-else"]
            $0["azp"] = .string(clientID)
        },
        ClaimCase("several aud with azp another client", .azp) {
            $0["aud"] = [.string(clientID), "someone-else"]
            $0["azp"] = "someone-else"
        },
        ClaimCase("one aud with azp another client", .azp) { $0["azp"] = "someone-else" },
        ClaimCase("expired beyond the skew", .exp) { $0["exp"] = 1_799_999_939 },
        ClaimCase("expired within the skew", nil) { $0["exp"] = 1_799_999_970 },
        ClaimCase("no exp", .exp) { $0["exp"] = nil },
        ClaimCase("iat in the future beyond the skew", .iat) { $0["iat"] = 1_800_000_061 },
        ClaimCase("iat in the future within the skew", nil) { $0["iat"] = 1_800_000_030 },
        ClaimCase("no iat", .iat) { $0["iat"] = nil },
        ClaimCase("nbf in the future beyond the skew", .iat) { $0["nbf"] = 1_800_000_120 },
        ClaimCase("another nonce", .nonce) { $0["nonce"] = "replayed" },
        ClaimCase("no nonce", .nonce) { $0["nonce"] = nil },
        ClaimCase("no sub", .malformed) { $0["sub"] = nil },
    ]

    @Test(arguments: claimCases)
    func eachClaimIsChecked(_ testCase: ClaimCase) {
        var claims = Self.claims
        testCase.change(&claims)
        #expect(check(Self.token(claims)) == testCase.expected)
    }

    @Test func theNonceIsNotCheckedWhenNoneWasSent() {
        var claims = Self.claims
        claims["nonce"] = nil
        #expect(check(Self.token(claims), nonce: nil) == nil)
        #expect(check(Self.token(), nonce: nil) == nil)
    }

    @Test func algNoneIsRefused() {
        let unsigned = Self.encode(["alg": "none"]) + "." + Self.encode(.object(Self.claims)) + "."
        #expect(check(unsigned) == .alg)
    }

    /// The classic key confusion: the upstream's public key used as an HMAC secret.
    @Test func hmacWithThePublicKeyAsSecretIsRefused() {
        let rsa = Self.keys[.rs256]!
        let input = Self.encode(["alg": "HS256", "kid": .string(rsa.kid)]) + "." + Self.encode(.object(Self.claims))
        let secret = SymmetricKey(data: Data(rsa.publicJWK.jsonValue.serialized.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)
        #expect(check(input + "." + Base64URL.encode(Data(mac))) == .alg)
    }

    @Test func anAlgorithmTheConnectionDoesNotAllowIsRefused() {
        let rsaOnly = UpstreamIDTokenValidator(
            issuer: Self.issuer, clientID: Self.clientID, algorithms: [.rs256], now: Self.now)
        #expect(check(Self.token(key: .alg(.es256)), validator: rsaOnly) == .alg)
        #expect(check(Self.token(key: .alg(.rs256)), validator: rsaOnly) == nil)
    }

    @Test func configuredNamesKeepOnlyVerifiableAlgorithms() {
        let names = ["none", "HS256", "HS512", "RS256", "ES512", "EdDSA"]
        #expect(UpstreamIDTokenValidator.algorithms(named: names) == [.rs256, .edDSA])
    }

    @Test func anUnknownKidAsksForTheJWKSAgain() {
        let key = Self.keys[.es256]!
        let header: JSONValue = ["alg": "ES256", "kid": "rotated-away"]
        #expect(check(Self.token(header: header)) == .kid)
        #expect(check(Self.token(), jwks: Self.jwks([Self.keys[.rs256]!])) == .kid)
        #expect(check(Self.token(), jwks: ["keys": []]) == .kid)
        #expect(check(Self.token(), jwks: "not a JWKS") == .kid)
        #expect(check(Self.token(), jwks: Self.jwks([key])) == nil)
    }

    @Test func aKidNamingAKeyOfAnotherAlgorithmIsRefused() {
        let header: JSONValue = ["alg": "ES256", "kid": .string(Self.keys[.rs256]!.kid)]
        #expect(check(Self.token(header: header)) == .alg)
    }

    /// RS256 and PS256 share RSA keys, but a JWK whose `alg` says RS256 is not used for PS256.
    @Test func aKeysOwnAlgIsRespected() {
        let rsa = Self.keys[.rs256]!
        let header: JSONValue = ["alg": "PS256", "kid": .string(rsa.kid)]
        let psToken = try! rsa.sign(
            payload: JSONValue.object(Self.claims).serialized, encodedHeader: Self.encode(header))
        #expect(check(psToken) == .alg)
        var members = rsa.publicJWK.jsonValue.objectValue!
        members["alg"] = nil
        #expect(check(psToken, jwks: ["keys": [.object(members)]]) == .signature)
    }

    @Test func aKeyForEncryptionIsNotUsed() {
        let key = Self.keys[.es256]!
        var members = key.publicJWK.jsonValue.objectValue!
        members["use"] = "enc"
        #expect(check(Self.token(), jwks: ["keys": [.object(members)]]) == .alg)
        members["use"] = nil
        members["key_ops"] = ["encrypt"]
        #expect(check(Self.token(), jwks: ["keys": [.object(members)]]) == .alg)
        members["key_ops"] = ["verify"]
        #expect(check(Self.token(), jwks: ["keys": [.object(members)]]) == nil)
    }

    @Test func withoutKidEveryUsableKeyIsTried() {
        let header: JSONValue = ["alg": "ES256"]
        let token = Self.token(key: .alg(.es256), header: header)
        let jwks = Self.jwks([Self.otherES256, Self.keys[.rs256]!, Self.keys[.es256]!])
        #expect(check(token, jwks: jwks) == nil)
        #expect(check(token, jwks: Self.jwks([Self.otherES256])) == .signature)
        #expect(check(token, jwks: Self.jwks([Self.keys[.rs256]!, Self.keys[.edDSA]!])) == .kid)
    }

    @Test func aBadSignatureIsRefused() {
        var parts = Self.token().split(separator: ".").map(String.init)
        var claims = Self.claims
        claims["sub"] = "someone-else"
        parts[1] = Self.encode(.object(claims))
        #expect(check(parts.joined(separator: ".")) == .signature)
        let header: JSONValue = ["alg": "ES256", "kid": .string(Self.keys[.es256]!.kid)]
        #expect(check(Self.token(key: .other, header: header)) == .signature)
    }

    @Test func oversizedAndMalformedTokensAreRefused() {
        var claims = Self.claims
        claims["padding"] = .string(String(repeating: "a", count: 16 * 1024))
        #expect(check(Self.token(claims)) == .malformed)
        for garbage in ["", "a.b", "a.b.c", "W10.e30.", Self.token() + ".x"] {
            #expect(check(garbage) == .malformed, "\(garbage)")
        }
        let header: JSONValue = ["alg": "ES256", "kid": .string(Self.keys[.es256]!.kid), "crit": ["exp"]]
        #expect(check(Self.token(header: header)) == .malformed)
        #expect(check("e30.e30.") == .alg)
    }

    @Test func errorsCompareByCodeAndNameTheCheck() {
        do {
            _ = try Self.validator.validate(Self.token(key: .alg(.edDSA)), jwks: Self.allKeys, nonce: "other")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .nonce)
            #expect(error.code.rawValue == "nonce")
            #expect(!error.message.contains("other"))
        }
    }
}
