import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The Management API of SPEC §12: factors, policies, a user's enrolments, recovery-code regeneration, deleting a
/// user's authenticators, and the `action` of post-login rules.
@Suite("Management API: MFA")
struct ManagementMFATests {
    /// A user of `warden`, made directly in the store.
    static func user(_ warden: TestWarden) async throws -> String {
        let user = User(userID: uniqueUserID(), email: nil, createdAt: warden.clock.now())
        try await warden.runtime.store.insertUser(UserRecord(user: user, passwordHash: nil))
        return user.userID
    }

    static func uniqueUserID() -> String { "auth0|" + RandomToken.identifier(prefix: "", length: 20) }

    @Test func factorsAreDisabledUntilEnabledAndListedInOrder() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let names: [JSONValue] = [
                "push-notification", "otp", "recovery-code", "webauthn-roaming", "webauthn-platform",
            ]
            let initial = try await admin.expect(.ok, .get, "guardian/factors")
            #expect(initial == .array(names.map { ["name": $0, "enabled": false] }))
            #expect(
                try await admin.expect(.ok, .put, "guardian/factors/otp", json: ["enabled": true]) == ["enabled": true])
            try await admin.expect(.ok, .put, "guardian/factors/recovery-code", json: ["enabled": true])
            try await admin.expect(.ok, .put, "guardian/factors/recovery-code", json: ["enabled": false])
            let listed = try await admin.expect(.ok, .get, "guardian/factors")
            #expect(
                listed == [
                    ["name": names[0], "enabled": false], ["name": names[1], "enabled": true],
                    ["name": names[2], "enabled": false], ["name": names[3], "enabled": false],
                    ["name": names[4], "enabled": false],
                ])
            #expect(try await warden.runtime.store.enabledMFAFactors() == [.otp])
        }
    }

    @Test func aFactorUpdateIsValidated() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expectError(404, "inexistent_factor", .put, "guardian/factors/sms", json: ["enabled": true])
            for body: JSONValue in [[:], ["enabled": "yes"], ["enabled": nil], ["enabled": true, "trial": true]] {
                try await admin.expectError(400, "invalid_body", .put, "guardian/factors/otp", json: body)
            }
            try await admin.expectError(400, "invalid_body", .put, "guardian/factors/otp", raw: "{")
            try await admin.expectError(400, "invalid_body", .put, "guardian/factors/otp", raw: "[true]")
            #expect(try await warden.runtime.store.enabledMFAFactors().isEmpty, "nothing changed")
        }
    }

    /// SPEC §17 "Second factor": the WebAuthn factors' settings, their defaults, a replacement, and each refusal.
    @Test func webAuthnFactorSettingsRoundTripAndAreValidated() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let path = "guardian/factors/webauthn-roaming/settings"
            let defaults: JSONValue = ["userVerification": "preferred", "overrideRelyingParty": false]
            #expect(try await admin.expect(.ok, .get, path) == defaults)
            #expect(
                try await admin.expect(.ok, .get, "guardian/factors/webauthn-platform/settings") == defaults)
            let host = warden.runtime.configuration.issuer.host ?? "localhost"
            let set: JSONValue = [
                "userVerification": "required", "overrideRelyingParty": true, "relyingPartyIdentifier": .string(host),
            ]
            #expect(try await admin.expect(.ok, .put, path, json: set) == set)
            #expect(try await admin.expect(.ok, .get, path) == set)
            #expect(try await warden.runtime.store.enabledMFAFactors().isEmpty, "settings enable nothing")
            try await admin.expect(.ok, .put, "guardian/factors/webauthn-roaming", json: ["enabled": true])
            #expect(try await admin.expect(.ok, .get, path) == set, "enabling keeps the settings")
            for body: JSONValue in [
                ["userVerification": "always"], ["overrideRelyingParty": "yes"], ["relyingPartyIdentifier": 3],
                ["overrideRelyingParty": true], ["relyingPartyIdentifier": "evil.example"], ["rp": "x"],
            ] {
                try await admin.expectError(400, "invalid_body", .put, path, json: body)
            }
            #expect(try await admin.expect(.ok, .get, path) == set, "nothing changed")
            for name in ["otp", "sms"] {
                try await admin.expectError(404, "inexistent_factor", .get, "guardian/factors/\(name)/settings")
                try await admin.expectError(
                    404, "inexistent_factor", .put, "guardian/factors/\(name)/settings", json: [:])
            }
        }
    }

    @Test func policiesRoundTrip() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let initial = try await admin.expect(.ok, .get, "guardian/policies")
            #expect(initial == .array([]))
            for policies: JSONValue in [["all-applications"], ["confidence-score"], []] {
                let stored = try await admin.expect(.ok, .put, "guardian/policies", json: policies)
                #expect(stored == policies)
                let read = try await admin.expect(.ok, .get, "guardian/policies")
                #expect(read == policies)
            }
        }
    }

    @Test func aPolicyListIsValidated() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.ok, .put, "guardian/policies", json: ["all-applications"])
            let invalid: [JSONValue] = [
                ["sometimes"], ["all-applications", "confidence-score"], [1], "all-applications",
                ["policy": "all-applications"],
            ]
            for body in invalid {
                try await admin.expectError(400, "invalid_body", .put, "guardian/policies", json: body)
            }
            try await admin.expectError(400, "invalid_body", .put, "guardian/policies", raw: "[")
            try await admin.expectError(400, "invalid_body", .put, "guardian/policies", raw: "")
            #expect(try await warden.runtime.store.mfaPolicies() == [.allApplications], "nothing changed")
        }
    }

    @Test func eachEndpointNeedsItsScope() async throws {
        let warden = try await TestWarden.make()
        let userID = try await Self.user(warden)
        try await warden.management { admin in
            let user = ManagementSession.segment(userID)
            let operations: [(HTTPRequest.Method, String, JSONValue?, String)] = [
                (.get, "guardian/factors", nil, "read:guardian_factors"),
                (.put, "guardian/factors/otp", ["enabled": true], "update:guardian_factors"),
                (.get, "guardian/policies", nil, "read:mfa_policies"),
                (.put, "guardian/policies", [], "update:mfa_policies"),
                (.post, "users/\(user)/recovery-code-regeneration", nil, "update:users"),
                (.delete, "users/\(user)/authenticators", nil, "delete:guardian_enrollments"),
                (.get, "users/\(user)/enrollments", nil, "read:users"),
            ]
            let everyOther = operations.map(\.3)
            for (method, uri, body, scope) in operations {
                let without = try await admin.restricted(to: everyOther.filter { $0 != scope })
                let message = try await without.expectError(403, "insufficient_scope", method, uri, json: body)
                #expect(message.contains(scope))
                let with = try await admin.restricted(to: [scope])
                let response = try await with.call(method, uri, json: body)
                #expect([.ok, .noContent].contains(response.status), "\(method) \(uri)")
                let anonymous = ManagementSession(http: admin.http, token: "not-a-token")
                try await anonymous.expectError(401, "invalid_token", method, uri, json: body)
            }
        }
    }

    @Test func recoveryCodeRegenerationGivesANewCodeEachTime() async throws {
        let warden = try await TestWarden.make()
        let userID = try await Self.user(warden)
        try await warden.management { admin in
            let uri = "users/\(ManagementSession.segment(userID))/recovery-code-regeneration"
            let first = try #require(try await admin.expect(.ok, .post, uri)["recovery_code"]?.stringValue)
            #expect(first.count == 24)
            #expect(first.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
            let second = try #require(try await admin.expect(.ok, .post, uri)["recovery_code"]?.stringValue)
            #expect(second != first)
            let stored = try await warden.runtime.store.recoveryCodeHash(userID: userID)
            #expect(stored == SecretHash.sha256Hex(second), "stored hashed, the new code replaces the old")
            try await admin.expectError(
                404, "inexistent_user", .post, "users/auth0%7Cnobody/recovery-code-regeneration")
        }
    }

    @Test func enrollmentsListPushDevicesAndOTPAuthenticators() async throws {
        let warden = try await TestWarden.make()
        let userID = try await Self.user(warden)
        let store = warden.runtime.store
        let enrolled = warden.clock.now()
        let device = DeviceEnrollment(
            id: "dev_" + RandomToken.identifier(prefix: "", length: 16), userID: userID, identifier: "phone-1",
            name: "Phone", pushCredentials: .init(service: "APNS", token: "apns-token"), publicKeyModulus: "u1SU",
            publicKeyExponent: "AQAB", tokenHash: SecretHash.sha256Hex("device-token"),
            totpSecret: "JBSWY3DPEHPK3PXP", createdAt: enrolled)
        try await store.insertDeviceEnrollment(device)
        let app = OTPAuthenticator(
            id: "totp_" + RandomToken.identifier(prefix: "", length: 16), userID: userID, name: "Authenticator app",
            secret: "JBSWY3DPEHPK3PXP", createdAt: enrolled.addingTimeInterval(1))
        try await store.insertOTPAuthenticator(app)
        try await store.markAuthenticatorUsed(id: app.id, at: enrolled.addingTimeInterval(60))
        try await warden.management { admin in
            let user = ManagementSession.segment(userID)
            let listed = try await admin.expect(.ok, .get, "users/\(user)/enrollments")
            let items = try #require(listed.arrayValue)
            #expect(items.count == 2)
            #expect(items[0]["id"] == .string(device.id))
            #expect(items[0]["type"] == "pn")
            #expect(items[0]["status"] == "confirmed")
            #expect(items[0]["name"] == "Phone")
            #expect(items[0]["enrolled_at"]?.stringValue?.hasSuffix("Z") == true)
            #expect(items[0]["last_auth"] == nil, "never used")
            #expect(items[1]["id"] == .string(app.id))
            #expect(items[1]["type"] == "totp")
            #expect(items[1]["status"] == "confirmed")
            #expect(items[1]["name"] == "Authenticator app")
            #expect(items[1]["last_auth"]?.stringValue?.hasSuffix("Z") == true)
            #expect(!listed.serialized.contains("JBSWY3DPEHPK3PXP"), "no secret")

            #expect(try await admin.expect(.ok, .get, "guardian/enrollments/\(app.id)") == items[1])
            #expect(try await admin.expect(.ok, .get, "guardian/enrollments/\(device.id)") == items[0])
            #expect(try await admin.call(.delete, "guardian/enrollments/\(app.id)").status == .noContent)
            try await admin.expectError(404, "inexistent_enrollment", .get, "guardian/enrollments/\(app.id)")
            try await admin.expectError(404, "inexistent_enrollment", .delete, "guardian/enrollments/\(app.id)")
            #expect(try await admin.expect(.ok, .get, "users/\(user)/enrollments") == [items[0]])

            try await admin.expect(.ok, .post, "users/\(user)/recovery-code-regeneration")
            #expect(try await admin.call(.delete, "users/\(user)/authenticators").status == .noContent)
            #expect(try await admin.expect(.ok, .get, "users/\(user)/enrollments") == [])
            #expect(try await store.recoveryCodeHash(userID: userID) == nil)
            #expect(try await admin.call(.delete, "users/\(user)/authenticators").status == .noContent, "idempotent")
            try await admin.expectError(404, "inexistent_user", .delete, "users/auth0%7Cnobody/authenticators")
        }
    }

    @Test func postLoginRulesHaveAnAction() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let denying = try await admin.expect(
                .created, .post, "post-login-rules", json: ["name": "x", "condition": "true", "deny_reason": "no"])
            #expect(denying["action"] == "deny", "the default")
            let mfa = try await admin.expect(
                .created, .post, "post-login-rules",
                json: ["name": "Abroad", "condition": "true", "action": "require_mfa"])
            #expect(mfa["action"] == "require_mfa")
            let id = try #require(mfa["id"]?.stringValue)
            try await admin.expectError(400, "invalid_body", .patch, "post-login-rules/\(id)", json: ["action": "deny"])
            let denied = try await admin.expect(
                .ok, .patch, "post-login-rules/\(id)", json: ["action": "deny", "deny_reason": "No"])
            #expect(denied["action"] == "deny")
            for action: JSONValue in ["allow", 1, nil] {
                try await admin.expectError(
                    400, "invalid_body", .patch, "post-login-rules/\(id)", json: ["action": action])
            }
            try await admin.expectError(
                400, "invalid_body", .post, "post-login-rules",
                json: ["name": "x", "condition": "true", "action": "deny"])
        }
    }
}
