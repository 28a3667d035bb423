import Testing
import WardenCore
import WardenWire

/// User ids and `identities[]` of federated users (SPEC §15 "Users"), strategies, and RFC 9207's `iss` check.
@Suite struct FederatedIdentityTests {
    struct IdentityCase: Sendable, CustomTestStringConvertible {
        let identity: FederatedIdentity
        let wardenUserID: String
        let identityUserID: JSONValue
        var testDescription: String { wardenUserID }
    }

    static let identityCases: [IdentityCase] = [
        IdentityCase(
            identity: FederatedIdentity(connection: "github", provider: .github, userID: .number(1_234_567)),
            wardenUserID: "github|1234567", identityUserID: 1_234_567),
        IdentityCase(
            identity: FederatedIdentity(
                connection: "google-oauth2", provider: .googleOAuth2, userID: .string("107592134827382211111")),
            wardenUserID: "google-oauth2|107592134827382211111", identityUserID: "107592134827382211111"),
        IdentityCase(
            identity: FederatedIdentity(connection: "acme", provider: .oidc, userID: .string("248289761001")),
            wardenUserID: "oidc|acme|248289761001", identityUserID: "acme|248289761001"),
        IdentityCase(
            identity: FederatedIdentity(connection: "acme-saml", provider: .samlp, userID: .string("jdoe")),
            wardenUserID: "samlp|acme-saml|jdoe", identityUserID: "acme-saml|jdoe"),
        IdentityCase(
            identity: FederatedIdentity(connection: "strava", provider: .oauth2, userID: .number(42)),
            wardenUserID: "oauth2|strava|42", identityUserID: "strava|42"),
        IdentityCase(
            identity: FederatedIdentity(databaseUserID: "auth0|65f1c0ffee0000000000abcd"),
            wardenUserID: "auth0|65f1c0ffee0000000000abcd", identityUserID: "65f1c0ffee0000000000abcd"),
    ]

    @Test(arguments: identityCases)
    func userIDsAndIdentities(_ testCase: IdentityCase) {
        let identity = testCase.identity
        #expect(identity.wardenUserID == testCase.wardenUserID)
        #expect(
            identity.jsonValue
                == [
                    "connection": .string(identity.connection), "provider": .string(identity.provider.rawValue),
                    "user_id": testCase.identityUserID, "isSocial": .bool(identity.isSocial),
                ])
    }

    @Test func theDatabaseIdentityIsTheReferencePlatforms() {
        let identity = FederatedIdentity(databaseUserID: "auth0|abc")
        #expect(
            identity.jsonValue
                == [
                    "connection": "Username-Password-Authentication", "provider": "auth0", "user_id": "abc",
                    "isSocial": false,
                ])
        #expect(identity.jsonValue.serialized.contains(#""user_id":"abc""#))
        #expect(
            FederatedIdentity(connection: "github", provider: .github, userID: .number(7)).jsonValue.serialized
                .contains(#""user_id":7"#))
    }

    @Test(arguments: [
        (ConnectionStrategy.auth0, ConnectionStrategy.StrategyType.database),
        (.github, .social), (.googleOAuth2, .social), (.oauth2, .social), (.oidc, .enterprise), (.samlp, .enterprise),
        ("waad", .enterprise),
    ])
    func strategyTypes(strategy: ConnectionStrategy, type: ConnectionStrategy.StrategyType) {
        #expect(strategy.strategyType == type)
        #expect(strategy.isSocial == (type == .social))
    }

    @Test func strategiesAreTheirWireNames() {
        #expect(ConnectionStrategy.googleOAuth2.rawValue == "google-oauth2")
        #expect(ConnectionStrategy(rawValue: "github") == .github)
    }

    static let upstreamIDCases: [(JSONValue, UpstreamUserID?)] = [
        ("248289761001", .string("248289761001")),
        (1_234_567, .number(1_234_567)),
        ("", nil), (1.5, nil), (9.1e15, nil), (true, nil), (.null, nil), (.array(["1"]), nil),
    ]

    @Test(arguments: upstreamIDCases)
    func upstreamIDsFromJSON(value: JSONValue, expected: UpstreamUserID?) {
        #expect(UpstreamUserID(value) == expected)
    }

    @Test(arguments: [
        // (iss parameter, metadata says supported, verdict)
        (String?.some("https://idp.example.com/"), false, AuthorizationResponseIssuer.accepted),
        ("https://idp.example.com/", true, .accepted),
        ("https://evil.example.com/", false, .mismatched),
        ("https://evil.example.com/", true, .mismatched),
        ("https://idp.example.com", true, .mismatched),
        (nil, false, .accepted),
        (nil, true, .missing),
    ])
    func rfc9207IssuerOfTheAuthorizationResponse(
        parameter: String?, supported: Bool, verdict: AuthorizationResponseIssuer
    ) {
        let result = AuthorizationResponseIssuer(
            parameter: parameter, issuer: "https://idp.example.com/", parameterSupported: supported)
        #expect(result == verdict)
        #expect(result.isAccepted == (verdict == .accepted))
    }
}
