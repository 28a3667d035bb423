import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `warden serve --demo` (SPEC §1) also registers what the `mcp-bank` example needs (SPEC §13).
@Suite("Demo tenant")
struct DemoTenantTests {
    @Test func theMCPBankGetsItsAPIAndItsCIBAClientAndReseedingKeepsThem() async throws {
        let warden = try await TestWarden.make()
        let first = try await DemoTenant(runtime: warden.runtime).seed()
        let store = warden.runtime.store
        let api = try #require(try await store.resourceServer(idOrIdentifier: DemoTenant.mcpBankResource))
        #expect(Set(api.scopes.map(\.value)) == ["read:balance", "transfer:funds"])
        #expect(api.authorizationDetails.map(\.type) == ["money_transfer"])
        let client = try #require(try await store.client(id: DemoTenant.mcpBankClientID))
        #expect(client.client.grantTypes == [.ciba])
        #expect(client.client.tokenEndpointAuthMethod == .clientSecretBasic)
        #expect(client.secretHash == SecretHash.sha256Hex(first.mcpBankClientSecret))

        // A second start keeps one API per identifier and makes a new secret.
        let second = try await DemoTenant(runtime: warden.runtime).seed()
        #expect(second.mcpBankClientSecret != first.mcpBankClientSecret)
        #expect(try await store.resourceServer(idOrIdentifier: DemoTenant.mcpBankResource)?.id == api.id)
        #expect(try await store.resourceServer(idOrIdentifier: DemoTenant.apiIdentifier) != nil)
    }
}
