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

/// The console's Connections pages (SPEC §14, §15 "Console"): the list with the database connection first,
/// creating from a preset through `POST /api/v2/connections`'s validation (its refusal on the form, the secret
/// never shown), the settings a PATCH changes, enabling per application, and delete.
@Suite("console: connections")
struct ConsoleConnectionsTests {
    /// A signed-in admin's browser: the in-process client, the console session cookie and its CSRF token.
    struct Console {
        let warden: TestWarden
        let http: any TestClientProtocol
        let adminID: String
        let cookie: String
        let csrf: String

        func get(_ path: String) async throws -> TestResponse {
            try await http.execute(uri: "/admin/" + path, method: .get, headers: [.cookie: cookie])
        }

        /// Posts the form `fields` with the session's CSRF token.
        func post(_ path: String, _ fields: [(String, String)], csrf: String? = nil) async throws -> TestResponse {
            try await http.postForm(
                "/admin/" + path, [("csrf", csrf ?? self.csrf)] + fields, headers: [.cookie: cookie])
        }

        /// Posts and expects the post/redirect/get answer; returns the page it leads to.
        func submit(
            _ path: String, _ fields: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> (location: String, page: String) {
            let response = try await post(path, fields)
            #expect(response.status == .seeOther, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
            let location = response.headers[.location] ?? ""
            let page = try await get(String(location.dropFirst("/admin/".count)))
            #expect(page.status == .ok, sourceLocation: sourceLocation)
            return (location, String(buffer: page.body))
        }
    }

    /// Runs `body` with a new tenant's console, signed in as an admin (the session made as the console's
    /// callback makes it).
    static func console(_ body: @Sendable (Console) async throws -> Void) async throws {
        let warden = try await TestWarden.make()
        let admin = User(
            userID: "auth0|" + RandomToken.identifier(prefix: "", length: 20), email: "admin@example.com",
            createdAt: warden.clock.now())
        try await warden.runtime.store.insertUser(UserRecord(user: admin, passwordHash: nil))
        try await Bootstrap(runtime: warden.runtime).makeAdmin(userID: admin.userID)
        let sessions = ConsoleSessions(artefacts: warden.runtime.store, clock: warden.clock, secureCookies: false)
        let (session, cookie) = try await sessions.start(userID: admin.userID, idToken: "")
        let (adminID, header, csrf) = (admin.userID, "\(ConsoleSessions.cookieName)=\(cookie.value)", session.csrf)
        try await warden.test { http in
            try await body(Console(warden: warden, http: http, adminID: adminID, cookie: header, csrf: csrf))
        }
    }

    /// A GitHub connection made through the Management controller.
    static func github(_ warden: TestWarden, name: String = "gh") async throws -> Connection {
        try await ConnectionsController(runtime: warden.runtime).create([
            "name": .string(name), "strategy": "github",
            "options": ["client_id": "gh-client", "client_secret": "gh-secret-never-shown"],
        ])
    }

    @Test func theListShowsTheDatabaseConnectionFirstWithoutADeleteButton() async throws {
        try await Self.console { console in
            let other = try await Self.github(console.warden, name: "aaa-first-by-name")
            let response = try await console.get("connections")
            #expect(response.status == .ok)
            let html = String(buffer: response.body)
            #expect(html.contains(#"<a href="/admin/connections" aria-current="page">Connections</a>"#))
            let database = try #require(html.range(of: Connection.databaseName))
            let github = try #require(html.range(of: other.name))
            #expect(database.lowerBound < github.lowerBound)
            #expect(html.contains("<strong>(database)</strong>"))
            #expect(html.contains("Every application"))
            #expect(!html.contains("\(Connection.databaseID)/delete"))
            #expect(html.contains("connections/\(other.id)/delete"))
            #expect(html.contains("connections/new?preset=github"))
        }
    }

    @Test func aGitHubConnectionMadeOnTheFormIsTheManagementAPIsWithoutItsSecretOnAnyPage() async throws {
        try await Self.console { console in
            let form = try await console.get("connections/new?preset=github")
            #expect(form.status == .ok)
            #expect(String(buffer: form.body).contains(#"name="options.client_secret" type="password""#))
            let secret = "gh-secret-typed-in-the-console"
            let (location, page) = try await console.submit(
                "connections/new?preset=github",
                [
                    ("name", "github"), ("options.client_id", "Iv1.abc"), ("options.client_secret", secret),
                    ("options.base_url", ""), ("options.email", "on"),
                ])
            #expect(location.hasSuffix("?done=created"))
            #expect(page.contains("The connection was created."))
            #expect(page.contains("Iv1.abc") && page.contains("user:email"))
            #expect(!page.contains(secret))
            let list = String(buffer: try await console.get("connections").body)
            #expect(list.contains(">github</a>") && !list.contains(secret))

            let management = try await ManagementSession.make(console.warden, console.http)
            let found = try await management.expect(.ok, .get, "connections?name=github")
            let created = try #require(found.arrayValue?.first)
            #expect(created["strategy"] == "github")
            #expect(created["options"]?["client_id"] == "Iv1.abc")
            #expect(created["options"]?["scope"] == ["user:email"])
            #expect(created["options"]?["client_secret"] == nil)
            let id = try #require(created["id"]?.stringValue)
            #expect(
                try await console.warden.runtime.store.connection(id: id)?.options["client_secret"] == .string(secret))

            await console.warden.flushLogs()
            let logs = try await console.warden.runtime.store.searchLogs(
                LogFilter(terms: ["type": ["sapi"], "user_id": [console.adminID]]), ascending: false,
                page: PageRequest(page: 0, perPage: 10))
            #expect(logs.items.contains { $0.description == "Create a connection" })

            // A refusal (the name is taken) shows the form again with what was typed, never the secret.
            let again = try await console.post(
                "connections/new?preset=github",
                [("name", "github"), ("options.client_id", "Iv1.other"), ("options.client_secret", secret)])
            #expect(again.status == .conflict)
            let html = String(buffer: again.body)
            #expect(html.contains("A connection with the same name already exists"))
            #expect(html.contains(#"value="Iv1.other""#) && !html.contains(secret))
        }
    }

    @Test func aDiscoveryURLThatCannotBeReadIsShownNextToItsField() async throws {
        try await Self.console { console in
            let response = try await console.post(
                "connections/new?preset=oidc",
                [
                    ("name", "acme"), ("options.discovery_url", "http://127.0.0.1:1/.well-known/openid-configuration"),
                    ("options.client_id", "warden"), ("options.client_secret", "upstream-secret"),
                ])
            #expect(response.status == .badRequest)
            let html = String(buffer: response.body)
            #expect(html.contains(#"id="f-options-discovery_url-error" class="field-error""#), "\(html)")
            #expect(html.contains(#"value="http://127.0.0.1:1/.well-known/openid-configuration""#))
            #expect(!html.contains("upstream-secret"))
            #expect(try await console.warden.runtime.store.connection(name: "acme") == nil)
        }
    }

    @Test func anOIDCConnectionFromADiscoveryURLAndItsSettings() async throws {
        try await ConnectionDiscoveryTests.upstream().test(.live) { server in
            let discovery = "http://127.0.0.1:\(try #require(server.port))/idp/.well-known/openid-configuration"
            try await Self.console { console in
                let (location, _) = try await console.submit(
                    "connections/new?preset=oidc",
                    [
                        ("name", "acme"), ("display_name", "Acme"), ("options.discovery_url", discovery),
                        ("options.client_id", "warden"), ("options.client_secret", "upstream-secret"),
                        ("options.scope", ""), ("options.domain_aliases", "acme.example, acme.test,"),
                    ])
                let store = console.warden.runtime.store
                let created = try #require(try await store.connection(name: "acme"))
                #expect(created.options["domain_aliases"] == ["acme.example", "acme.test"])
                #expect(created.options["token_endpoint"] != nil)

                let path = String(location.dropFirst("/admin/".count).prefix { $0 != "?" })
                let (_, page) = try await console.submit(
                    path,
                    [
                        ("display_name", "Acme Corp"), ("show_as_button", "on"),
                        ("options.domain_aliases", "acme.example"),
                    ])
                #expect(page.contains("The connection was saved.") && page.contains(#"value="acme.example""#))
                let saved = try #require(try await store.connection(id: created.id))
                #expect(saved.displayName == "Acme Corp" && saved.showAsButton)
                #expect(saved.options["domain_aliases"] == ["acme.example"])
                #expect(saved.options["client_secret"] == "upstream-secret")
                #expect(saved.options["token_endpoint"] == created.options["token_endpoint"])
                #expect(!page.contains("upstream-secret"))
            }
        }
    }

    @Test func aConnectionIsEnabledAndDisabledPerApplication() async throws {
        try await Self.console { console in
            let connection = try await Self.github(console.warden)
            let (clientID, _) = try await console.warden.makeClient(grantTypes: [.authorizationCode])
            let page = String(buffer: try await console.get("connections/\(connection.id)").body)
            #expect(page.contains(#"name="enabled_clients:\#(clientID)""#))

            let store = console.warden.runtime.store
            _ = try await console.submit(
                "connections/\(connection.id)/clients", [("enabled_clients:\(clientID)", "on")])
            #expect(try await store.enabledClients(connectionID: connection.id, after: nil, limit: 10) == [clientID])
            #expect(try await store.connections(enabledFor: clientID).map(\.id).contains(connection.id))
            let list = String(buffer: try await console.get("connections").body)
            #expect(list.contains(#"<td data-label="Applications">1</td>"#))

            _ = try await console.submit("connections/\(connection.id)/clients", [])
            #expect(try await store.enabledClients(connectionID: connection.id, after: nil, limit: 10) == [])
        }
    }

    @Test func deletingAConnectionButNeverTheDatabase() async throws {
        try await Self.console { console in
            let connection = try await Self.github(console.warden)
            let store = console.warden.runtime.store
            let (location, page) = try await console.submit("connections/\(connection.id)/delete", [])
            #expect(location.hasSuffix("connections?done=deleted") && page.contains("The connection was deleted."))
            #expect(try await store.connection(id: connection.id) == nil)

            let database = try await console.get("connections/\(Connection.databaseID)")
            #expect(database.status == .ok)
            #expect(!String(buffer: database.body).contains("/delete"))
            let refused = try await console.post("connections/\(Connection.databaseID)/delete", [])
            #expect(refused.status == .forbidden)
            #expect(try await store.connection(id: Connection.databaseID) != nil)
        }
    }

    /// SPEC §15.1: the database connection's page saves sign-up and the password policy as its options, every other
    /// option kept, through the Management API's validation.
    @Test func theDatabaseConnectionsSignUpAndPasswordSettings() async throws {
        try await Self.console { console in
            let store = console.warden.runtime.store
            let page = String(buffer: try await console.get("connections/\(Connection.databaseID)").body)
            #expect(page.contains("name=\"passwordPolicy\""))
            #expect(page.contains("name=\"disable_signup\""))
            let (location, saved) = try await console.submit(
                "connections/\(Connection.databaseID)",
                [
                    ("disable_signup", "on"), ("passwordPolicy", "excellent"), ("min_length", "12"),
                    ("password_history", "3"), ("password_dictionary", "on"), ("dictionary", "acme, rocket"),
                ])
            #expect(location.hasSuffix("?done=saved") && saved.contains("The connection was saved."))
            let options = try #require(try await store.connection(id: Connection.databaseID)).options
            #expect(options["disable_signup"] == true)
            #expect(options["passwordPolicy"] == "excellent")
            #expect(options["password_complexity_options"] == ["min_length": 12])
            #expect(options["password_history"] == ["enable": true, "size": 3])
            #expect(options["password_dictionary"] == ["enable": true, "dictionary": ["acme", "rocket"]])
            #expect(options["password_no_personal_info"] == ["enable": false])
            let policy = try await console.warden.runtime.accountService.settings()
            #expect(policy.signupDisabled && policy.policy.strength == .excellent && policy.policy.historySize == 3)

            let refused = try await console.post(
                "connections/\(Connection.databaseID)", [("passwordPolicy", "good"), ("password_history", "99")])
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains("password_history.size"))
            #expect(try await store.connection(id: Connection.databaseID)?.options["passwordPolicy"] == "excellent")
        }
    }

    /// SPEC §15.1: a user's page mails a verification link or a reset link.
    @Test func aUsersPageSendsAccountEmails() async throws {
        try await Self.console { console in
            let warden = console.warden
            let user = User(
                userID: "auth0|" + RandomToken.identifier(prefix: "", length: 20), email: "mail-me@example.com",
                createdAt: warden.clock.now())
            try await warden.runtime.store.insertUser(UserRecord(user: user, passwordHash: nil))
            let path = "users/" + user.userID.replacingOccurrences(of: "|", with: "%7C")
            let page = String(buffer: try await console.get(path).body)
            #expect(page.contains("Send verification e-mail") && page.contains("Send password reset"))
            let (_, verified) = try await console.submit(path + "/send-verification", [])
            #expect(verified.contains("A verification e-mail is on its way"))
            let (_, reset) = try await console.submit(path + "/send-password-reset", [])
            #expect(reset.contains("A password reset e-mail is on its way"))
            await warden.flushLogs()
            let sent = try await warden.runtime.store.searchLogs(
                LogFilter(terms: ["type": ["scpr"]]), ascending: true, page: PageRequest(page: 0, perPage: 10))
            #expect(sent.items.map(\.userID) == [user.userID])
        }
    }

    /// SPEC §17: a user's page lists their passkeys (name, created, last used, synced or not) and deletes one.
    @Test func aUsersPageListsAndDeletesPasskeys() async throws {
        try await Self.console { console in
            let store = console.warden.runtime.store
            let user = User(
                userID: "auth0|" + RandomToken.identifier(prefix: "", length: 20), email: "keys@example.com",
                createdAt: console.warden.clock.now())
            try await store.insertUser(UserRecord(user: user, passwordHash: nil))
            var synced = WebAuthnCredential(
                id: "dev_synced", userID: user.userID, kind: .passkey, credentialID: RandomToken.bytes(32),
                publicKey: [1, 2, 3], signCount: 0, aaguid: UUID(), relyingPartyID: "localhost",
                createdAt: console.warden.clock.now())
            synced.name = "Synced passkey on <iPhone>"
            synced.backupEligible = true
            var local = synced
            local.id = "dev_local"
            local.credentialID = RandomToken.bytes(32)
            local.name = "Passkey on Linux"
            local.backupEligible = false
            for credential in [synced, local] {
                #expect(try await store.insertWebAuthnCredential(credential, limit: 20) == .inserted)
            }
            let path = "users/" + user.userID.replacingOccurrences(of: "|", with: "%7C")
            let page = String(buffer: try await console.get(path).body)
            #expect(page.contains("Synced passkey on &lt;iPhone&gt;") && page.contains("Passkey on Linux"))
            #expect(page.contains("Synced") && page.contains("This device only") && page.contains("Never"))
            let (_, after) = try await console.submit(path + "/passkeys/dev_local/delete", [])
            #expect(after.contains("The passkey was deleted.") && !after.contains("Passkey on Linux"))
            #expect(try await store.webAuthnCredentials(userID: user.userID).map(\.id) == ["dev_synced"])
            let forged = try await console.post(path + "/passkeys/dev_synced/delete", [], csrf: "forged")
            #expect(forged.status == .forbidden)
            #expect(try await store.webAuthnCredentials(userID: user.userID).count == 1)
        }
    }

    @Test func aFormWithoutTheSessionsCSRFTokenChangesNothing() async throws {
        try await Self.console { console in
            let response = try await console.post(
                "connections/new?preset=github",
                [("name", "forged"), ("options.client_id", "x"), ("options.client_secret", "y")], csrf: "forged")
            #expect(response.status == .forbidden)
            #expect(try await console.warden.runtime.store.connection(name: "forged") == nil)
        }
    }

    @Test func commaSeparatedFieldsBecomeArrays() {
        let form = ConsoleForm([.init(legend: "L", fields: [ConsoleConnectionPreset.domainAliases])])
        let input = ["options.domain_aliases": " a.example , ,b.example"]
        #expect(form.body { input[$0] }["options"] == ["domain_aliases": ["a.example", "b.example"]])
        #expect(
            form.showing(["options": ["domain_aliases": ["a.example", "b.example"]]]).values.values.first
                == "a.example, b.example")
    }
}
