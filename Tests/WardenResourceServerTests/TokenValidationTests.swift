import Foundation
import Hummingbird
import Testing
import WardenClient
import WardenCore
import WardenResourceServer
import WardenWire

/// Access-token validation (RFC 9068 §4, SPEC §13) against a local issuer's JWKS: every algorithm Warden signs
/// with, each failed check refused as `invalid_token` naming it, and the JWKS refetch on an unknown `kid`.
@Suite("WardenResourceServer: token validation")
struct TokenValidationTests {
    @Test(arguments: SigningAlgorithm.allCases)
    func aValidTokenIsAcceptedWithItsClaims(alg: SigningAlgorithm) async throws {
        let (issuer, key) = try LocalIssuer.publishing(alg)
        let token = try await issuer.server().validate(try LocalIssuer.token(key))
        #expect(token.subject == "auth0|alice")
        #expect(token.clientID == "agent")
        #expect(token.scope == ["openid", "read:balance"])
        #expect(token.audience == [LocalIssuer.resource])
        #expect(token.issuer == LocalIssuer.issuer.absoluteString)
        #expect(token.authorizationDetails.isEmpty)
        #expect(token.claims["jti"] == "jti-1")
    }

    @Test func anAudienceArrayNamingTheResourceIsAccepted() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let token = try LocalIssuer.token(key) {
            $0["aud"] = [.string(LocalIssuer.resource), "https://id.example.com/userinfo"]
        }
        #expect(try await issuer.server().validate(token).audience.count == 2)
    }

    @Test func anExpiredTokenIsRefusedBeyondTheLeeway() async throws {
        let (issuer, key) = try LocalIssuer.publishing(.es256)
        let expired = try LocalIssuer.token(key) { $0["exp"] = .number(Date().timeIntervalSince1970 - 600) }
        // Minutes apart, so a slow machine's wall clock cannot move the token across a leeway during the test.
        _ = try await issuer.server(leeway: .seconds(1200)).validate(expired)  // within the leeway
        await expectRefusal(.invalidToken, "the token has expired") {
            _ = try await issuer.server(leeway: .seconds(5)).validate(expired)
        }
    }

    @Test func aTokenNotValidYetIsRefusedBeyondTheLeeway() async throws {
        let (issuer, key) = try LocalIssuer.publishing(.es256)
        let early = try LocalIssuer.token(key) {
            $0["nbf"] = .number(Date().timeIntervalSince1970 + 600)
            $0["exp"] = .number(Date().timeIntervalSince1970 + 900)
        }
        _ = try await issuer.server(leeway: .seconds(1200)).validate(early)
        await expectRefusal(.invalidToken, "the token is not valid yet (nbf)") {
            _ = try await issuer.server(leeway: .seconds(5)).validate(early)
        }
    }

    @Test func aTokenForAnotherAudienceIsRefused() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let other = try LocalIssuer.token(key) { $0["aud"] = ["https://other.example.com", "https://id.example.com/"] }
        await expectRefusal(.invalidToken, "aud [\"https://other.example.com\"") {
            _ = try await issuer.server().validate(other)
        }
    }

    @Test func aTokenOfAnotherIssuerIsRefused() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let foreign = try LocalIssuer.token(key) { $0["iss"] = "https://evil.example.com/" }
        await expectRefusal(.invalidToken, "iss https://evil.example.com/ is not https://id.example.com/") {
            _ = try await issuer.server().validate(foreign)
        }
    }

    /// An ID token (`typ` `JWT`) or any other JWT of the issuer is not an access token (RFC 9068 §4 step 1).
    @Test(arguments: ["JWT", "jwt", "logout+jwt"])
    func aTokenOfAnotherTypeIsRefused(type: String) async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        await expectRefusal(.invalidToken, "typ is not at+jwt") {
            _ = try await issuer.server().validate(try LocalIssuer.token(key, type: type))
        }
        _ = try await issuer.server().validate(try LocalIssuer.token(key, type: "application/at+jwt"))
    }

    @Test(arguments: [SigningAlgorithm.rs256, .es256, .edDSA])
    func aTamperedTokenIsRefused(alg: SigningAlgorithm) async throws {
        let (issuer, key) = try LocalIssuer.publishing(alg)
        let token = try LocalIssuer.token(key)
        let parts = token.split(separator: ".").map(String.init)
        var claims = LocalIssuer.claims()
        claims["scope"] = "openid read:balance transfer:funds"
        let escalated = [parts[0], Base64URL.encode(Data(JSONValue.object(claims).serialized.utf8)), parts[2]]
        await expectRefusal(.invalidToken, "the signature does not verify") {
            _ = try await issuer.server().validate(escalated.joined(separator: "."))
        }
        let flipped = String(token.dropLast(2)) + (token.hasSuffix("AA") ? "BA" : "AA")
        await expectRefusal(.invalidToken, "the signature does not verify") {
            _ = try await issuer.server().validate(flipped)
        }
        await expectRefusal(.invalidToken, "not a JWS") { _ = try await issuer.server().validate("not-a-jwt") }
    }

    @Test func unsignedAndMACTokensAreRefused() async throws {
        let issuer = LocalIssuer()
        issuer.publish([try LocalIssuer.key()])
        for alg in ["none", "HS256"] {
            let header = Base64URL.encode(Data(#"{"alg":"\#(alg)","typ":"at+jwt","kid":"k"}"#.utf8))
            let payload = Base64URL.encode(Data(JSONValue.object(LocalIssuer.claims()).serialized.utf8))
            await expectRefusal(.invalidToken, "alg \(alg) is not accepted") {
                _ = try await issuer.server().validate("\(header).\(payload).c2ln")
            }
        }
        #expect(issuer.jwksFetches == 0)
    }

    /// The key rotates: a token of the new key costs exactly one refetch and is accepted; within the refetch
    /// interval another unknown `kid` is refused without a fetch, even once the JWKS has it.
    @Test func anUnknownKidIsRefetchedOnceThenRateLimited() async throws {
        let issuer = LocalIssuer()
        let old = try LocalIssuer.key()
        issuer.publish([old])
        let server = issuer.server(jwksRefetchInterval: .seconds(60))
        _ = try await server.validate(try LocalIssuer.token(old))
        _ = try await server.validate(try LocalIssuer.token(old))
        #expect(issuer.jwksFetches == 1)

        let new = try LocalIssuer.key(.es256)
        issuer.publish([old, new])
        _ = try await server.validate(try LocalIssuer.token(new))
        #expect(issuer.jwksFetches == 2)
        _ = try await server.validate(try LocalIssuer.token(old))
        #expect(issuer.jwksFetches == 2)

        let unpublished = try LocalIssuer.key()
        await expectRefusal(.invalidToken, "no key with kid \(unpublished.kid) in the JWKS") {
            _ = try await server.validate(try LocalIssuer.token(unpublished))
        }
        let flood = try LocalIssuer.key()
        issuer.publish([old, new, flood])
        await expectRefusal(.invalidToken, "no key with kid \(flood.kid) in the JWKS") {
            _ = try await server.validate(try LocalIssuer.token(flood))
        }
        #expect(issuer.jwksFetches == 2)
        #expect(await server.jwksFetchCount == 2)
    }

    /// Once the refetch interval has passed, an unknown `kid` is fetched again.
    @Test func afterTheRefetchIntervalAnUnknownKidIsFetchedAgain() async throws {
        let (issuer, old) = try LocalIssuer.publishing(.es256)
        let server = issuer.server(jwksRefetchInterval: .milliseconds(200))
        _ = try await server.validate(try LocalIssuer.token(old))
        let second = try LocalIssuer.key(.es256)
        issuer.publish([old, second])
        _ = try await server.validate(try LocalIssuer.token(second))
        #expect(issuer.jwksFetches == 2)
        try await Task.sleep(for: .milliseconds(300))
        let third = try LocalIssuer.key(.es256)
        issuer.publish([old, second, third])
        _ = try await server.validate(try LocalIssuer.token(third))
        #expect(issuer.jwksFetches == 3)
    }

    @Test func concurrentTokensOfANewKeyShareOneRefetch() async throws {
        let issuer = LocalIssuer()
        let old = try LocalIssuer.key(.es256)
        issuer.publish([old])
        let server = issuer.server()
        _ = try await server.validate(try LocalIssuer.token(old))
        let new = try LocalIssuer.key(.es256)
        issuer.publish([old, new])
        let token = try LocalIssuer.token(new)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { _ = try await server.validate(token) } }
            try await group.waitForAll()
        }
        #expect(issuer.jwksFetches == 2)
    }

    @Test func anUnreachableJWKSIsAServiceFailureNotABadToken() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let elsewhere = issuer.server { $0.issuer = URL(string: "https://other-id.example.com")! }
        let error = await #expect(throws: ProtectedResourceError.self) {
            _ = try await elsewhere.validate(try LocalIssuer.token(key))
        }
        #expect(error?.status == .serviceUnavailable)
        #expect(error?.code == "temporarily_unavailable")
        #expect(error?.challenge == nil)
    }
}

/// Typed `authorization_details` (RFC 9396 §9): the entries of one type decode into the API's own type.
@Suite("WardenResourceServer: authorization_details")
struct AuthorizationDetailsTests {
    struct MoneyTransfer: Decodable, Equatable {
        struct Amount: Decodable, Equatable {
            let amount: Double
            let currency: String
        }
        let instructedAmount: Amount
        let beneficiary: String
    }

    @Test func entriesOfTheTypeDecodeAndOthersAreLeftOut() async throws {
        let (issuer, key) = try LocalIssuer.publishing()
        let transfer: JSONValue = [
            "type": "money_transfer", "instructedAmount": ["amount": 2500, "currency": "USD"],
            "beneficiary": "Hanna Herwitz",
        ]
        let token = try LocalIssuer.token(key) {
            $0["authorization_details"] = [
                transfer, ["type": "account_information", "accounts": ["1234"]],
                ["type": "money_transfer", "instructedAmount": "not an object"],
            ]
        }
        let verified = try await issuer.server().validate(token)
        #expect(verified.authorizationDetails.count == 3)
        #expect(verified.authorizationDetails.first == transfer)
        let transfers = verified.authorizationDetails(ofType: "money_transfer", as: MoneyTransfer.self)
        #expect(
            transfers == [
                MoneyTransfer(instructedAmount: .init(amount: 2500, currency: "USD"), beneficiary: "Hanna Herwitz")
            ])
        #expect(verified.authorizationDetails(ofType: "payment_initiation", as: MoneyTransfer.self).isEmpty)
    }
}
