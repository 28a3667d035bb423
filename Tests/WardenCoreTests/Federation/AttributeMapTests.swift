import Testing
import WardenCore
import WardenWire

/// `attribute_map`, the root attributes, `set_user_root_attributes` and the `oauth2` declarative profile
/// (SPEC §15 "Strategies" and "Users").
@Suite struct AttributeMapTests {
    static let idToken: [String: JSONValue] = [
        "iss": "https://idp.example.com/", "aud": "warden", "exp": 1_800_000_600, "iat": 1_800_000_000,
        "nbf": 1_800_000_000, "nonce": "n", "at_hash": "x", "c_hash": "y", "azp": "warden", "auth_time": 1,
        "sid": "s", "jti": "j", "sub": "248289761001", "email": "jane@acme.example", "email_verified": true,
        "given_name": "Jane", "family_name": "Doe", "groups": ["admins", "staff"],
        "address": ["country": "FR"], "https://acme.example/tier": "gold",
    ]
    static let userinfo: [String: JSONValue] = [
        "sub": "248289761001", "name": "Jane Doe", "email": "jane.doe@acme.example", "locale": "fr",
    ]

    @Test func bindAllKeepsEveryClaimButTheProtocolOnesWithUserinfoWinning() throws {
        let profile = AttributeMap().profile(idTokenClaims: Self.idToken, userinfo: Self.userinfo)
        #expect(
            profile.profileData == [
                "sub": "248289761001", "email": "jane.doe@acme.example", "email_verified": true, "given_name": "Jane",
                "family_name": "Doe", "groups": ["admins", "staff"], "address": ["country": "FR"],
                "https://acme.example/tier": "gold", "name": "Jane Doe", "locale": "fr",
            ])
        #expect(profile.rootAttributes.email == "jane.doe@acme.example")
        #expect(profile.rootAttributes.emailVerified)
        #expect(profile.rootAttributes.name == "Jane Doe")
        #expect(profile.rootAttributes.givenName == "Jane")
        #expect(profile.rootAttributes.familyName == "Doe")
        #expect(profile.rootAttributes.nickname == nil)
        #expect(profile.unresolvedAttributes.isEmpty)
    }

    @Test func userinfoOfAnotherSubjectIsNotUsed() {
        var userinfo = Self.userinfo
        userinfo["sub"] = "someone-else"
        let profile = AttributeMap().profile(idTokenClaims: Self.idToken, userinfo: userinfo)
        #expect(profile.profileData["email"] == "jane@acme.example")
        #expect(profile.profileData["locale"] == nil)
    }

    @Test func useMapKeepsOnlyTheMappedAttributes() throws {
        let map = try AttributeMap(
            option: [
                "mapping_mode": "use_map",
                "attributes": [
                    "email": "${context.tokenset.email}", "name": "${context.userinfo.name}",
                    "nickname": "${context.tokenset.given_name} ${context.tokenset.family_name}",
                    "federated_groups": "${context.tokenset.groups}",
                    "group_list": "groups: ${context.tokenset.groups}",
                    "country": "${context.tokenset.address.country}",
                    "tier": "${context.tokenset.https://acme.example/tier}",
                    "department": "Engineering", "vip": true, "level": 3,
                    "manager": "${context.userinfo.manager}",
                    "price": "$5 ${context.userinfo.locale} $",
                ],
            ])
        let profile = map.profile(idTokenClaims: Self.idToken, userinfo: Self.userinfo)
        #expect(
            profile.profileData == [
                "email": "jane@acme.example", "name": "Jane Doe", "nickname": "Jane Doe",
                "federated_groups": ["admins", "staff"], "group_list": "groups: admins,staff", "country": "FR",
                "tier": "gold", "department": "Engineering", "vip": true, "level": 3, "price": "$5 fr $",
            ])
        #expect(profile.unresolvedAttributes == ["manager"])
        #expect(!profile.rootAttributes.emailVerified)
        #expect(profile.rootAttributes.nickname == "Jane Doe")
    }

    @Test func bindAllAppliesAttributesOverTheClaims() throws {
        let map = try AttributeMap(option: ["attributes": ["name": "${context.tokenset.given_name}"]])
        #expect(map.mappingMode == .bindAll)
        let profile = map.profile(idTokenClaims: Self.idToken, userinfo: Self.userinfo)
        #expect(profile.profileData["name"] == "Jane")
        #expect(profile.profileData["locale"] == "fr")
    }

    @Test func theOptionIsAnsweredAsConfigured() throws {
        let option: JSONValue = [
            "mapping_mode": "use_map", "userinfo_scope": "openid email groups",
            "attributes": ["email": "${context.tokenset.email}", "vip": true],
        ]
        #expect(try AttributeMap(option: option).jsonValue == option)
        #expect(try AttributeMap(option: nil).jsonValue == ["mapping_mode": "bind_all", "attributes": [:]])
    }

    static let badAttributeMaps: [(JSONValue, String)] = [
        (JSONValue.string("use_map"), "attribute_map"),
        (["mapping_mode": "basic_profile"], "attribute_map.mapping_mode"),
        (["mapping_mode": "use_map", "attributez": [:]], "attribute_map.attributez"),
        (["attributes": ["email", "name"]], "attribute_map.attributes"),
        (["attributes": ["email": "${context.tokenset.email"]], "attribute_map.attributes.email"),
        (["attributes": ["email": "${context.idtoken.email}"]], "attribute_map.attributes.email"),
        (["attributes": ["email": "${context.tokenset.}"]], "attribute_map.attributes.email"),
        (["attributes": ["email": "${context.tokenset..email}"]], "attribute_map.attributes.email"),
        (["attributes": ["groups": ["a"]]], "attribute_map.attributes.groups"),
        (["attributes": ["": "x"]], "attribute_map.attributes"),
        (["userinfo_scope": 1], "attribute_map.userinfo_scope"),
    ]

    @Test(arguments: badAttributeMaps)
    func badAttributeMapsNameTheOption(option: JSONValue, path: String) {
        let error = #expect(throws: ConnectionOptionError.self) { try AttributeMap(option: option) }
        #expect(error?.option == path)
        #expect(error?.description.hasSuffix("on property options.\(path).") == true)
        #expect(error?.managementError.errorCode == "invalid_body")
        #expect(error?.managementError.statusCode == 400)
    }

    @Test(arguments: [
        (JSONValue?.none, false), (true, true), ("true", true), (false, false), ("false", false), ("TRUE", false),
        (1, false), (.null, false),
    ])
    func emailIsVerifiedOnlyWhenTheUpstreamSaysSo(value: JSONValue?, verified: Bool) {
        var profile: [String: JSONValue] = ["email": "jane@acme.example"]
        profile["email_verified"] = value
        #expect(FederatedRootAttributes(profile: profile).emailVerified == verified)
    }

    @Test func nonStringRootAttributesCountAsAbsent() {
        let attributes = FederatedRootAttributes(profile: ["email": ["a@b.example"], "name": 5, "picture": .null])
        #expect(attributes == FederatedRootAttributes(profile: [:]))
    }

    @Test(arguments: [
        // (option, first login, writes root attributes, writes profileData)
        (UserRootAttributesUpdate.onEachLogin, true, true, true),
        (.onEachLogin, false, true, true),
        (.onFirstLogin, true, true, true),
        (.onFirstLogin, false, false, true),
        (.neverOnLogin, true, true, true),
        (.neverOnLogin, false, false, false),
    ])
    func setUserRootAttributes(
        update: UserRootAttributesUpdate, firstLogin: Bool, writesRoot: Bool, writesProfileData: Bool
    ) {
        let profile = AttributeMap().profile(idTokenClaims: Self.idToken, userinfo: nil)
        let changes = update.changes(from: profile, firstLogin: firstLogin)
        #expect(changes.rootAttributes == (writesRoot ? profile.rootAttributes : nil))
        #expect(changes.profileData == (writesProfileData ? profile.profileData : nil))
    }

    @Test func setUserRootAttributesOption() throws {
        #expect(try UserRootAttributesUpdate(option: nil) == .onEachLogin)
        #expect(try UserRootAttributesUpdate(option: "never_on_login") == .neverOnLogin)
        #expect(throws: ConnectionOptionError.self) { try UserRootAttributesUpdate(option: "always") }
        #expect(throws: ConnectionOptionError.self) { try UserRootAttributesUpdate(option: true) }
    }

    // MARK: - oauth2

    static let strava: [String: JSONValue] = [
        "id": 42, "mail": "jane@acme.example", "profile": ["display_name": "Jane D.", "avatar": "https://x/j.png"],
    ]

    @Test func oauth2ProfileFollowsFieldsMap() throws {
        let mapping = try OAuth2ProfileMapping(options: [
            "fieldsMap": ["email": "mail", "name": "profile.display_name", "picture": "profile.missing"]
        ])
        let result = try #require(mapping.profile(userinfo: Self.strava))
        #expect(result.userID == .number(42))
        #expect(result.profile.profileData["email"] == "jane@acme.example")
        #expect(result.profile.profileData["mail"] == "jane@acme.example")
        #expect(result.profile.profileData["picture"] == nil)
        #expect(result.profile.rootAttributes.name == "Jane D.")
        #expect(!result.profile.rootAttributes.emailVerified)
    }

    static let userIDFieldCases: [(String?, [String: JSONValue], UpstreamUserID?)] = [
        // (user_id_field, response, upstream id)
        (nil, ["sub": "abc", "id": 1], .string("abc")),
        (nil, ["id": 1], .number(1)),
        (nil, ["sub": "", "id": "x"], .string("x")),
        (nil, ["login": "jane"], nil),
        ("data.uid", ["data": ["uid": "u-1"], "sub": "ignored"], .string("u-1")),
        ("data.uid", ["sub": "s"], nil),
        ("id", ["id": 1.5], nil),
    ]

    @Test(arguments: userIDFieldCases)
    func oauth2UserIDField(field: String?, userinfo: [String: JSONValue], expected: UpstreamUserID?) throws {
        var options: [String: JSONValue] = [:]
        options["user_id_field"] = field.map(JSONValue.string)
        let mapping = try OAuth2ProfileMapping(options: options)
        #expect(mapping.profile(userinfo: userinfo)?.userID == expected)
    }

    static let badOAuth2Options: [([String: JSONValue], String)] = [
        (["user_id_field": 1], "user_id_field"),
        (["user_id_field": "a..b"], "user_id_field"),
        (["fieldsMap": "email=mail"], "fieldsMap"),
        (["fieldsMap": ["email": 1]], "fieldsMap.email"),
        (["fieldsMap": ["email": ""]], "fieldsMap.email"),
    ]

    @Test(arguments: badOAuth2Options)
    func badOAuth2OptionsNameTheOption(options: [String: JSONValue], path: String) {
        let error = #expect(throws: ConnectionOptionError.self) { try OAuth2ProfileMapping(options: options) }
        #expect(error?.option == path)
    }
}
