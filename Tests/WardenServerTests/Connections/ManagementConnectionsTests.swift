import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// `/api/v2/connections` (SPEC §15 "Management"): the reference platform's shapes and quirks.
@Suite("Management API: connections")
struct ManagementConnectionsTests {
    static let github: JSONValue = [
        "name": "github", "strategy": "github",
        "options": ["client_id": "gh-app", "client_secret": "gh-secret", "email": true, "read_org": true],
    ]

    @Test func theDatabaseConnectionExistsForEveryClientAndCannotBeDeleted() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let client = try await admin.expect(
                .created, .post, "clients", json: ["name": "Web", "app_type": "regular_web"])
            let clientID = try #require(client["client_id"]?.stringValue)
            let listed = try await admin.expect(.ok, .get, "connections?strategy=auth0")
            let database = try #require(listed.arrayValue?.first)
            #expect(listed.arrayValue?.count == 1)
            #expect(database["id"] == .string(Connection.databaseID))
            #expect(database["name"] == .string(Connection.databaseName))
            #expect(database["options"]?["passwordPolicy"] == "good")
            #expect(database["enabled_clients"]?.arrayValue?.contains(.string(clientID)) == true)
            let ofClient = try await admin.expect(.ok, .get, "clients/\(clientID)/connections")
            #expect(ofClient["connections"]?.strings("name") == [Connection.databaseName])

            try await admin.expectError(403, "operation_not_allowed", .delete, "connections/\(Connection.databaseID)")
            let message = try await admin.expectError(
                400, "invalid_body", .post, "connections", json: ["name": "db2", "strategy": "auth0"])
            #expect(message.contains("strategy"))
        }
    }

    @Test func createShowsDefaultsHidesSecretsAndComputesGitHubScopes() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(.created, .post, "connections", json: Self.github)
            let id = try #require(created["id"]?.stringValue)
            #expect(id.hasPrefix("con_") && id.count == 20)
            #expect(id.dropFirst(4).allSatisfy { $0.isLetter || $0.isNumber })
            #expect(created["display_name"] == "github")
            #expect(created["is_domain_connection"] == false)
            #expect(created["show_as_button"] == false)
            #expect(created["realms"] == ["github"])
            #expect(created["metadata"] == [:])
            #expect(created["enabled_clients"] == [])
            #expect(created["options"]?["client_secret"] == nil)
            #expect(created["options"]?["client_id"] == "gh-app")
            #expect(created["options"]?["scope"] == ["read:org", "user:email"])
            let stored = try #require(try await warden.runtime.store.connection(id: id))
            #expect(stored.options["client_secret"] == "gh-secret")
            #expect(try await admin.expect(.ok, .get, "connections/\(id)") == created)
        }
    }

    @Test func patchReplacesOptionsKeepsSecretsAndResetsTheDisplayName() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "connections",
                json: [
                    "name": "gh", "strategy": "github", "display_name": "GitHub", "show_as_button": true,
                    "options": ["client_id": "one", "client_secret": "kept", "email": true],
                    "metadata": ["team": "identity"],
                ])
            let id = try #require(created["id"]?.stringValue)
            #expect(created["display_name"] == "GitHub")
            let kept = try await admin.expect(.ok, .patch, "connections/\(id)", json: ["show_as_button": false])
            #expect(kept["display_name"] == "gh", "a PATCH without display_name resets it to name")
            #expect(kept["options"] == created["options"], "a PATCH without options keeps them")
            #expect(kept["metadata"] == ["team": "identity"])

            let replaced = try await admin.expect(
                .ok, .patch, "connections/\(id)", json: ["options": ["client_id": "two", "client_secret": nil]])
            #expect(replaced["options"]?["client_id"] == "two")
            #expect(replaced["options"]?["scope"] == [], "options are replaced whole: no flag is left")
            let stored = try #require(try await warden.runtime.store.connection(id: id))
            #expect(stored.options["client_secret"] == "kept", "a PATCH leaving a secret out keeps it")

            for member in ["name", "strategy"] {
                let message = try await admin.expectError(
                    400, "invalid_body", .patch, "connections/\(id)", json: [member: "other"])
                #expect(message.contains(member))
            }
        }
    }

    @Test func deleteIs202Then204AndUnknownIs404() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let id = try #require(
                try await admin.expect(.created, .post, "connections", json: Self.github)["id"]?.stringValue)
            let first = try await admin.expect(.accepted, .delete, "connections/\(id)")
            #expect(first["deleted_at"]?.stringValue?.hasSuffix("Z") == true)
            #expect(try await admin.call(.delete, "connections/\(id)").status == .noContent)
            try await admin.expectError(404, "inexistent_connection", .get, "connections/\(id)")
            try await admin.expectError(404, "inexistent_connection", .delete, "connections/con_0000000000000000")
            try await admin.expect(.created, .post, "connections", json: Self.github)
        }
    }

    @Test(
        "Bad bodies are 400 invalid_body naming the property",
        arguments: [
            (["name": "-lead", "strategy": "github"], "name"),
            (["name": .string(String(repeating: "a", count: 129)), "strategy": "github"], "name"),
            (["name": "has space", "strategy": "github"], "name"),
            (["name": "x", "strategy": "kerberos"], "strategy"),
            (["name": "x", "strategy": "github", "options": ["client_secret": "s"]], "options.client_id"),
            (
                [
                    "name": "x", "strategy": "github",
                    "options": ["client_id": "a", "client_secret": "s", "email": "yes"],
                ],
                "options.email"
            ),
            (["name": "x", "strategy": "github", "metadata": ["a": 1]], "metadata.a"),
            (["name": "x", "strategy": "github", "enabled_clients": ["nobody"]], "enabled_clients[0]"),
            (
                [
                    "name": "x", "strategy": "oauth2",
                    "options": [
                        "client_id": "a", "authorizationURL": "https://o.test/a", "tokenURL": "https://o.test/t",
                        "scripts": ["fetchUserProfile": "function(){}"],
                    ],
                ], "fetchUserProfile"
            ),
            (
                [
                    "name": "x", "strategy": "oidc",
                    "options": ["client_id": "a", "client_secret": "s", "scope": "email profile"],
                ], "options.scope"
            ),
            (
                [
                    "name": "x", "strategy": "oidc",
                    "options": ["client_id": "a", "client_secret": "s", "id_token_signed_response_algs": ["HS256"]],
                ], "id_token_signed_response_algs"
            ),
            (
                [
                    "name": "x", "strategy": "github",
                    "options": [
                        "client_id": "a", "client_secret": "s", "federated_connections_access_tokens": ["active": true],
                    ],
                ], "active"
            ),
        ] as [(JSONValue, String)])
    func badBodies(body: JSONValue, names: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let message = try await admin.expectError(400, "invalid_body", .post, "connections", json: body)
            #expect(message.contains(names), "\(message)")
        }
    }

    @Test func theDatabaseConnectionsPasswordPolicyOptionsAreChecked() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let path = "connections/\(Connection.databaseID)"
            for (options, names): (JSONValue, String) in [
                (["passwordPolicy": "strong"], "options.passwordPolicy"),
                (["password_history": ["enable": true, "size": 25]], "options.password_history.size"),
                (["password_complexity_options": ["min_length": 0]], "options.password_complexity_options.min_length"),
            ] {
                let message = try await admin.expectError(400, "invalid_body", .patch, path, json: ["options": options])
                #expect(message.contains(names), "\(message)")
            }
            let patched = try await admin.expect(
                .ok, .patch, path,
                json: ["options": ["passwordPolicy": "excellent", "password_history": ["enable": true, "size": 5]]])
            #expect(patched["options"]?["passwordPolicy"] == "excellent")
        }
    }

    @Test func aDuplicateNameIs409AndMetadataIsCapped() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.created, .post, "connections", json: Self.github)
            try await admin.expectError(409, "conflict", .post, "connections", json: Self.github)
            var metadata: [String: JSONValue] = [:]
            for index in 0...10 { metadata["k\(index)"] = "v" }
            try await admin.expectError(
                400, "invalid_body", .post, "connections",
                json: ["name": "gh2", "strategy": "github", "metadata": .object(metadata)])
        }
    }

    @Test func enabledClientsByConnectionAndByClient() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            var clientIDs: [String] = []
            for name in ["A", "B", "C"] {
                let client = try await admin.expect(.created, .post, "clients", json: ["name": .string(name)])
                clientIDs.append(try #require(client["client_id"]?.stringValue))
            }
            clientIDs.sort()
            var members = try #require(Self.github.objectValue)
            members["enabled_clients"] = [.string(clientIDs[0])]
            let body = JSONValue.object(members)
            let id = try #require(try await admin.expect(.created, .post, "connections", json: body)["id"]?.stringValue)
            try await admin.expect(
                .noContent, .patch, "connections/\(id)/clients",
                json: [
                    ["client_id": .string(clientIDs[1]), "status": true],
                    ["client_id": .string(clientIDs[2]), "status": true],
                    ["client_id": .string(clientIDs[0]), "status": false],
                ])
            let page = try await admin.expect(.ok, .get, "connections/\(id)/clients?take=1")
            #expect(page["clients"]?.strings("client_id") == [clientIDs[1]])
            let next = try #require(page["next"]?.stringValue)
            let rest = try await admin.expect(.ok, .get, "connections/\(id)/clients?take=1&from=\(next)")
            #expect(rest["clients"]?.strings("client_id") == [clientIDs[2]])
            #expect(rest["next"] == nil)
            let ofClient = try await admin.expect(.ok, .get, "clients/\(clientIDs[2])/connections?strategy=github")
            #expect(ofClient["connections"]?.strings("id") == [id])
            let patched = try await admin.expect(
                .ok, .patch, "connections/\(id)", json: ["enabled_clients": [.string(clientIDs[0])]])
            #expect(patched["enabled_clients"] == [.string(clientIDs[0])], "enabled_clients on PATCH is the whole list")

            let tooMany = JSONValue.array(
                (0...50).map { _ in ["client_id": .string(clientIDs[0]), "status": true] })
            try await admin.expectError(400, "invalid_body", .patch, "connections/\(id)/clients", json: tooMany)
            try await admin.expectError(
                404, "inexistent_client", .patch, "connections/\(id)/clients",
                json: [["client_id": "nobody", "status": true]])
            try await admin.expectError(404, "inexistent_client", .get, "clients/nobody/connections")
        }
    }

    @Test func listsFilterAndPageByCheckpoint() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.created, .post, "connections", json: Self.github)
            let totals = try await admin.expect(.ok, .get, "connections?include_totals=true&per_page=1")
            #expect(totals["total"] == 2)
            #expect(totals["connections"]?.arrayValue?.count == 1)
            let named = try await admin.expect(.ok, .get, "connections?name=github")
            #expect(named.strings("name") == ["github"])
            let both = try await admin.expect(.ok, .get, "connections?strategy=github&strategy=auth0")
            #expect(Set(both.strings("strategy")) == ["github", "auth0"])
            let first = try await admin.expect(.ok, .get, "connections?take=1")
            let next = try #require(first["next"]?.stringValue)
            let second = try await admin.expect(.ok, .get, "connections?take=1&from=\(next)")
            #expect(second["connections"]?.arrayValue?.count == 1)
            #expect(second["next"] == nil)
        }
    }
}

/// `google-oauth2` (SPEC §15): an OIDC connection to Google underneath, from Google's recorded discovery document.
@Suite("Connections: Google")
struct GoogleConnectionTests {
    @Test func aGoogleConnectionIsOIDCToGoogleWithItsScopeFlags() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let created = try await admin.expect(
                .created, .post, "connections",
                json: [
                    "name": "google-oauth2", "strategy": "google-oauth2",
                    "options": ["client_id": "g-app", "client_secret": "g-secret", "email": true, "profile": true],
                ])
            let options = try #require(created["options"])
            #expect(options["issuer"] == "https://accounts.google.com")
            #expect(options["jwks_uri"] == "https://www.googleapis.com/oauth2/v3/certs")
            #expect(options["scope"] == ["openid", "email", "profile"])
            #expect(options["client_secret"] == nil)
            let id = try #require(created["id"]?.stringValue)
            let connection = try #require(try await warden.runtime.store.connection(id: id))
            let upstream = OIDCUpstream(
                connection: connection, http: .shared,
                keySets: UpstreamKeySets(http: .shared, clock: warden.runtime.clock), keys: warden.runtime.keys,
                clock: warden.runtime.clock, callbackURL: "https://warden.example/login/callback")
            var request = AuthorizationRequest(
                clientID: "app", redirectURI: "https://app.example/cb", responseMode: .query, state: "s",
                nonce: nil, scope: ["openid"], audience: nil, codeChallenge: nil, prompt: [], maxAge: nil)
            request.loginHint = "pat@example.com"
            let url = try #require(
                URLComponents(
                    string: upstream.authorizationURL(state: "st", nonce: "n", verifier: "v", request: request)))
            #expect(url.host == "accounts.google.com" && url.path == "/o/oauth2/v2/auth")
            let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["scope"] == "openid email profile")
            #expect(query["client_id"] == "g-app" && query["login_hint"] == "pat@example.com")
            #expect(query["code_challenge_method"] == "S256" && query["nonce"] == "n" && query["state"] == "st")
        }
    }
}
