import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `POST /bc-authorize` (CIBA Core §7, §13; SPEC §6.1): every rule of the table, each with its status and code.
@Suite("POST /bc-authorize")
struct BackchannelAuthorizeTests {
    @Test func anAcceptedRequestAnswersItsIdExpiryAndInterval() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await fixture.start(http: http)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let id = try #require(response.json["auth_req_id"]?.stringValue)
            #expect(id.count >= 43)
            #expect(response.json["expires_in"] == 600)
            #expect(response.json["interval"] == 5)
            let stored = try await fixture.stored(id)
            #expect(stored.status == .pending)
            #expect(stored.channel == .email)
            #expect(stored.consentID.hasPrefix("cns_"))
            #expect(stored.scope == ["openid", "offline_access", "transfer:funds"])
            #expect(stored.audience == fixture.api.identifier)
            #expect(stored.bindingMessage == "Pay 2500 USD #A-17")
            #expect(stored.authorizationDetails?.arrayValue?.first?["beneficiary"] == "Hanna Herwitz")
            #expect(abs(stored.expiresAt.timeIntervalSince(fixture.warden.clock.now()) - 600) < 0.001)
        }
        let events = try await fixture.events("ciba_start_succeeded")
        #expect(events.count == 1)
        #expect(events.first?.userID == fixture.userID)
        #expect(events.first?.clientID == fixture.client.id)
    }

    @Test func aJSONBodyIsAcceptedToo() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let body = JSONValue.object([
                "client_id": .string(fixture.client.id), "client_secret": .string(fixture.client.secret),
                "login_hint": .string(fixture.loginHint()), "scope": "openid", "binding_message": "Sign in",
                "requested_expiry": 900, "audience": .null, "authorization_details": "",
            ]).serialized
            let response = try await http.postJSON("/bc-authorize", body)
            #expect(response.status == .ok, "\(response.json)")
            #expect(response.json["expires_in"] == 900)
        }
    }

    @Test func theDefaultExpiryIsFiveMinutesWhichNeedsAPushDevice() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await fixture.start(["requested_expiry": nil], http: http)
            expectError(response, status: .badRequest, code: "invalid_request")
            #expect(response.json["error_description"] == "user has no push-enrolled device")
            let boundary = try await fixture.start(["requested_expiry": "300"], http: http)
            expectError(boundary, status: .badRequest, code: "invalid_request")
            #expect(try await fixture.start(["requested_expiry": "301"], http: http).status == .ok)
        }
    }

    @Test func clientAuthenticationAndTheGrantAreRequired() async throws {
        let fixture = try await BackchannelFixture.make()
        let other = try await fixture.warden.makeClient(grantTypes: [.clientCredentials])
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(http: http, credentials: [("client_id", fixture.client.id)]),
                status: .unauthorized, code: "invalid_client")
            expectError(
                try await fixture.start(
                    http: http, credentials: [("client_id", fixture.client.id), ("client_secret", "wrong")]),
                status: .unauthorized, code: "invalid_client")
            expectError(
                try await fixture.start(
                    http: http, credentials: [("client_id", other.id), ("client_secret", other.secret)]),
                status: .badRequest, code: "unauthorized_client")
        }
        #expect(try await fixture.events("ciba_start_failed").count == 3)
    }

    @Test(arguments: [
        (#"not json"#, "invalid_request"),
        (#"{"format":"email","iss":"http://127.0.0.1:8080/","sub":"x"}"#, "invalid_request"),
        (#"{"format":"iss_sub","iss":"https://other.example.com/","sub":"x"}"#, "invalid_request"),
        (#"{"format":"iss_sub","iss":"http://127.0.0.1:8080/"}"#, "invalid_request"),
        (#"{"format":"iss_sub","iss":"http://127.0.0.1:8080/","sub":"auth0|nobody"}"#, "unknown_user_id"),
    ])
    func loginHintRules(hint: String, code: String) async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(["login_hint": hint], http: http), status: .badRequest, code: code)
            expectError(
                try await fixture.start(["login_hint": nil], http: http), status: .badRequest, code: "invalid_request")
        }
    }

    @Test func aBlockedUserCannotBeAsked() async throws {
        let fixture = try await BackchannelFixture.make()
        let blocked = try await FrontChannelFixture.addUser(fixture.warden, email: "blocked@example.com", blocked: true)
        try await fixture.warden.test { http in
            let response = try await fixture.start(["login_hint": fixture.loginHint(blocked)], http: http)
            expectError(response, status: .forbidden, code: "access_denied")
        }
    }

    @Test func scopeRules() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let noOpenID = try await fixture.start(
                ["scope": "profile", "audience": nil, "authorization_details": nil], http: http)
            expectError(noOpenID, status: .badRequest, code: "invalid_request")
            #expect(noOpenID.json["error_description"] == "openid scope must be requested")
            expectError(
                try await fixture.start(["scope": "openid delete:everything"], http: http),
                status: .badRequest, code: "invalid_scope")
            expectError(
                try await fixture.start(
                    ["scope": "openid read:balance", "audience": nil, "authorization_details": nil], http: http),
                status: .badRequest, code: "invalid_scope")
            // With an audience, openid is optional.
            #expect(try await fixture.start(["scope": "transfer:funds"], http: http).status == .ok)
            #expect(try await fixture.start(["scope": nil], http: http).status == .ok)
        }
    }

    @Test(arguments: [
        nil, "", String(repeating: "a", count: 65), "Pay <script>", "Pay 100 € now", "line\nbreak", "quote\"",
        "Pay ½ now", "Ref Ⅻ", "Code ²³",
    ])
    func bindingMessageRules(message: String?) async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await fixture.start(["binding_message": message], http: http)
            expectError(response, status: .badRequest, code: "invalid_binding_message")
        }
    }

    @Test func theLongestAndRichestBindingMessageIsAccepted() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let message = "Ünïcode letters 123 +-_.,:#" + String(repeating: "x", count: 37)
            #expect(message.count == 64)
            let response = try await fixture.start(["binding_message": .some(message)], http: http)
            #expect(response.status == .ok, "\(response.json)")
        }
    }

    @Test(arguments: ["0", "-5", "259201", "abc", "1.5", "99999999999999999999", "+600", "0600", " 600", "６００"])
    func requestedExpiryRules(value: String) async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(["requested_expiry": value], http: http), status: .badRequest,
                code: "invalid_request")
        }
    }

    @Test func theLongestExpiryIsThreeDays() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            let response = try await fixture.start(["requested_expiry": "259200"], http: http)
            #expect(response.json["expires_in"] == 259_200)
        }
    }

    @Test func audienceRules() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(["audience": "https://unknown.example.com/"], http: http),
                status: .badRequest, code: "invalid_request")
            expectError(
                try await fixture.start(
                    [
                        "audience": fixture.warden.runtime.configuration.managementAudience, "scope": "openid",
                        "authorization_details": nil,
                    ], http: http),
                status: .badRequest, code: "invalid_request")
        }
    }

    @Test(arguments: [
        "not json", #"{"type":"money_transfer"}"#, "[]", #"["money_transfer"]"#, #"[{"amount":1}]"#,
        #"[{"type":7}]"#, #"[{"type":"appointment"}]"#,
        #"[{"type":"money_transfer","note":""# + String(repeating: "x", count: 16 * 1024) + #""}]"#,
    ])
    func authorizationDetailsRules(details: String) async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(["authorization_details": details], http: http), status: .badRequest,
                code: "invalid_authorization_details")
        }
    }

    @Test func authorizationDetailsNeedAnAudience() async throws {
        let fixture = try await BackchannelFixture.make()
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(["audience": nil, "scope": "openid"], http: http), status: .badRequest,
                code: "invalid_authorization_details")
        }
    }

    @Test func aPingClientMustSendANotificationToken() async throws {
        let fixture = try await BackchannelFixture.make {
            $0.backchannelTokenDeliveryMode = .ping
            $0.backchannelClientNotificationEndpoint = "https://client.example.com/ciba"
        }
        try await fixture.warden.test { http in
            expectError(
                try await fixture.start(http: http), status: .badRequest, code: "invalid_request")
            expectError(
                try await fixture.start(
                    ["client_notification_token": String(repeating: "t", count: 1025)], http: http),
                status: .badRequest, code: "invalid_request")
            let accepted = try await fixture.start(["client_notification_token": "8d67dc78-7faa-4d41"], http: http)
            #expect(accepted.status == .ok)
        }
    }

    @Test func theSixthRequestForAUserInAMinuteIsRefusedWhateverTheClient() async throws {
        let fixture = try await BackchannelFixture.make()
        let second = try await fixture.warden.makeClient(grantTypes: [.ciba])
        try await fixture.warden.test { http in
            for index in 0..<5 {
                // Refused requests do not count.
                _ = try await fixture.start(["binding_message": "bad!"], http: http)
                let credentials =
                    index % 2 == 0
                    ? [("client_id", fixture.client.id), ("client_secret", fixture.client.secret)]
                    : [("client_id", second.id), ("client_secret", second.secret)]
                #expect(try await fixture.start(http: http, credentials: credentials).status == .ok)
                fixture.warden.clock.advance(by: 5)
            }
            let limited = try await fixture.start(http: http)
            expectError(limited, status: .tooManyRequests, code: "too_many_requests")
            // The first request leaves the window 60 s after it was made: 35 s from now.
            #expect(limited.headers[HTTPField.Name("Retry-After")!] == "35")
            // Another user is not limited.
            let other = try await FrontChannelFixture.addUser(fixture.warden, email: "bob@example.com")
            #expect(try await fixture.start(["login_hint": fixture.loginHint(other)], http: http).status == .ok)
            fixture.warden.clock.advance(by: 35)
            #expect(try await fixture.start(http: http).status == .ok)
        }
    }

    @Test func rolesFilterTheScopesOfAnAPIThatEnforcesPolicies() async throws {
        let fixture = try await BackchannelFixture.make { _ in
        } configureAPI: {
            $0.enforcePolicies = true
        }
        let store = fixture.warden.runtime.store
        let role = Role(id: RandomToken.identifier(prefix: "rol_"), name: "reader", description: nil)
        try await store.insertRole(role)
        try await store.addPermissions(
            [Permission(resourceServerIdentifier: fixture.api.identifier, permissionName: "read:balance")],
            toRole: role.id)
        try await store.assignRoles([role.id], toUser: fixture.userID)
        try await fixture.warden.test { http in
            let id = try await fixture.started(["scope": "openid read:balance transfer:funds"], http: http)
            #expect(try await fixture.stored(id).scope == ["openid", "read:balance"])
        }
    }
}
