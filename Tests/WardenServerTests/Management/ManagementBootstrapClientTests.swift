import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The bootstrap management client is protected like the system API (SPEC §1, §9): the API it authorizes cannot
/// delete it, change it or rotate its secret; `warden bootstrap rotate-secret` does.
@Suite("Management API: the bootstrap client")
struct ManagementBootstrapClientTests {
    @Test func itCannotBeDeletedChangedOrRotatedThroughTheAPI() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let id = warden.managementClientID
            try await admin.expectError(403, "operation_not_allowed", .delete, "clients/\(id)")
            try await admin.expectError(
                403, "operation_not_allowed", .patch, "clients/\(id)", json: ["grant_types": []])
            try await admin.expectError(403, "operation_not_allowed", .post, "clients/\(id)/rotate-secret")
            let stored = try #require(try await warden.runtime.store.client(id: id))
            #expect(stored.client.grantTypes == [.clientCredentials])
            #expect(stored.secretHash == SecretHash.sha256Hex(warden.managementClientSecret))
            try await admin.expect(.ok, .get, "clients/\(id)")
        }
    }

    /// An upgrade that adds Management scopes (SPEC §15's `read:connections` …): the next start adds them to the
    /// system API and the bootstrap grant, so the management client can use them.
    @Test func aStartAddsNewManagementScopesToTheSystemAPI() async throws {
        let warden = try await TestWarden.make()
        let audience = warden.runtime.configuration.managementAudience
        var api = try #require(try await warden.runtime.store.resourceServer(idOrIdentifier: audience))
        api.scopes.removeAll { $0.value.hasSuffix(":connections") }
        try await warden.runtime.store.updateResourceServer(api)
        try await Bootstrap(runtime: warden.runtime).run()
        let upgraded = try #require(try await warden.runtime.store.resourceServer(idOrIdentifier: audience))
        #expect(upgraded.scopes.map(\.value).contains("read:connections"))
        try await warden.management { admin in try await admin.expect(.ok, .get, "connections") }
    }

    @Test func noOtherClientMayCarryTheBootstrapMarker() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expectError(
                400, "invalid_body", .post, "clients",
                json: ["name": "Impostor", "client_metadata": ["warden_system": "management"]])
            let created = try await admin.expect(.created, .post, "clients", json: ["name": "Other"])
            let id = try #require(created["client_id"]?.stringValue)
            try await admin.expectError(
                400, "invalid_body", .patch, "clients/\(id)", json: ["client_metadata": ["warden_system": "x"]])
            try await admin.expect(.ok, .patch, "clients/\(id)", json: ["name": "Still changeable"])
            try await admin.expect(.noContent, .delete, "clients/\(id)")
        }
    }

    /// What `warden bootstrap rotate-secret` runs: a new secret that works at once while the old one stops.
    @Test func theCommandLineRotationReplacesTheSecret() async throws {
        let warden = try await TestWarden.make()
        var configuration = warden.runtime.configuration
        await #expect(throws: BootstrapError.self, "refused while WARDEN_BOOTSTRAP_CLIENT_SECRET is set") {
            try await Bootstrap(runtime: warden.runtime).rotateManagementSecret()
        }
        configuration.bootstrapClientSecret = nil
        let cli = try await WardenRuntime.make(
            configuration: configuration, store: warden.runtime.store, clock: warden.clock,
            logger: Logger(label: "warden-test-cli"))
        let rotated = try await Bootstrap(runtime: cli).rotateManagementSecret()
        #expect(rotated.clientID == warden.managementClientID)
        #expect(rotated.secret != warden.managementClientSecret)
        #expect(Base64URL.decode(rotated.secret)?.count == 32)
        try await warden.runtime.cache.reload()
        try await warden.test { http in
            for (secret, status) in [
                (warden.managementClientSecret, HTTPResponse.Status.unauthorized), (rotated.secret, .ok),
            ] {
                let response = try await http.postForm(
                    "/oauth/token",
                    [
                        ("grant_type", "client_credentials"), ("client_id", warden.managementClientID),
                        ("client_secret", secret), ("audience", ManagementSession.audience),
                    ])
                #expect(response.status == status)
            }
        }
    }
}
