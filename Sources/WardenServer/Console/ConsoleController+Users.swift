import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The users page (SPEC §14 "users"): the v3 search of `GET /api/v2/users?q=`, a paged table and the form that
/// creates a user through `POST /api/v2/users`'s validation.
struct ConsoleUsersPage: Page {
    static let template = "console_users"
    let title = "Users"
    var chrome: ConsoleChrome
    var query: String
    var queryError: String?
    var rows: [Row]
    var total: Int
    var pager: ConsolePager
    var form: ConsoleFormView
    let createPath = "users"
    let createHeading = "Create a user"
    let createButton = "Create the user"

    struct Row: Sendable {
        var href: String
        var email: String
        var userID: String
        var name: String
        var status: String
        var lastLogin: String
    }

    /// The fields of a new user: what `POST /api/v2/users` needs (SPEC §9).
    static let createForm = ConsoleForm([
        .init(
            legend: "New user",
            fields: [
                ConsoleField("email", "E-mail address", .text(whenEmpty: .emptyString)),
                ConsoleField(
                    "password", "Password", .password,
                    hint: "The database connection's password policy applies (Connections)."),
                ConsoleField("name", "Name (optional)"),
                ConsoleField(
                    "connection", "Connection", .select(ConsoleField.options([Connection.databaseName])),
                    hint: "Warden has one database connection."),
            ])
    ])

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <form class="filters" method="get" action="{{chrome.base}}users" role="search">
        <div class="field"><label for="q">Search</label>
        <input id="q" name="q" value="{{query}}" aria-describedby="q-hint{{#queryError}} q-error{{/queryError}}"{{#queryError}} aria-invalid="true"{{/queryError}}>
        {{#queryError}}<p id="q-error" class="field-error">{{queryError}}</p>{{/queryError}}</div>
        <div><button type="submit">Search</button></div>
        </form>
        <p id="q-hint" class="hint">The Management API's v3 query language: <code>email:"ann@example.com"</code>,
        <code>name:ann*</code>, <code>blocked:true</code>, <code>_exists_:app_metadata.plan</code>, AND, OR, NOT.</p>
        <div class="table"><table>
        <caption>Users ({{total}} found, page {{pager.number}})</caption>
        <thead><tr><th scope="col">E-mail</th><th scope="col">User id</th><th scope="col">Name</th>
        <th scope="col">Status</th><th scope="col">Last sign-in (UTC)</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td data-label="E-mail"><a href="{{href}}">{{email}}</a></td><td data-label="User id"><code>{{userID}}</code></td>
        <td data-label="Name">{{name}}</td><td data-label="Status">{{status}}</td><td data-label="Last sign-in">{{lastLogin}}</td></tr>
        {{/rows}}
        {{^rows}}<tr><td colspan="5">No user matches.</td></tr>{{/rows}}
        </tbody></table></div>
        {{> pager}}
        {{> create_form}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// A user's page (SPEC §14 "users"): block or unblock, roles, passkeys (SPEC §17: as
/// `GET /api/v2/users/{id}/authentication-methods`, deleted one by one), enrolments (as
/// `GET /api/v2/users/{id}/enrollments`) and "Reset MFA" (as `DELETE /api/v2/users/{id}/authenticators`).
struct ConsoleUserPage: Page {
    static let template = "console_user"
    var title: String
    var chrome: ConsoleChrome
    var path: String
    var blocked: Bool
    var details: [Detail]
    var roles: [Role]
    var otherRoles: [Role]
    var enrollments: [Enrollment]
    var passkeys: [Passkey]
    var notice: String?
    /// A database user with an address: the page offers the account e-mails (SPEC §15.1).
    var accountEmails: Bool

    struct Detail: Sendable {
        var name: String
        var value: String
    }

    struct Role: Sendable {
        var id: String
        var name: String
        var description: String
    }

    /// A WebAuthn credential: passkey or second-factor key.
    struct Passkey: Sendable {
        var id: String
        var type: String
        var name: String
        var createdAt: String
        var lastUsed: String
        /// "Synced" (BE) or "This device only".
        var synced: String
    }

    struct Enrollment: Sendable {
        var id: String
        var type: String
        var name: String
        var enrolledAt: String
        var lastAuth: String
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p><a href="{{chrome.base}}users">← All users</a></p>
        <section class="card"><h2>Profile</h2>
        <dl class="details">{{#details}}<dt>{{name}}</dt><dd>{{value}}</dd>{{/details}}</dl>
        <form method="post" action="{{path}}/blocked">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        {{#blocked}}<input type="hidden" name="blocked" value="false"><button type="submit">Unblock</button>{{/blocked}}
        {{^blocked}}<input type="hidden" name="blocked" value="true"><button type="submit" class="danger">Block</button>{{/blocked}}
        </form></section>
        {{#accountEmails}}<section class="card"><h2>Account e-mails</h2>
        <p class="hint">Mail the user a verification link (5 days), or a link to choose a new password (5 minutes; it
        signs them out everywhere once used).</p>
        <form class="inline" method="post" action="{{path}}/send-verification">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit">Send verification e-mail</button></form>
        <form class="inline" method="post" action="{{path}}/send-password-reset">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit">Send password reset</button></form>
        </section>{{/accountEmails}}
        <section class="card"><h2>Roles</h2>
        <div class="table"><table><caption>Roles of this user</caption>
        <thead><tr><th scope="col">Role</th><th scope="col">Description</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#roles}}<tr><td data-label="Role">{{name}}</td><td data-label="Description">{{description}}</td><td>
        <form method="post" action="{{path}}/roles/{{id}}/remove"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Remove the role {{name}}">Remove</button></form></td></tr>
        {{/roles}}
        {{^roles}}<tr><td colspan="3">No role.</td></tr>{{/roles}}
        </tbody></table></div>
        {{#otherRoles.0}}<form class="inline" method="post" action="{{path}}/roles">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <div class="field"><label for="role">Role to assign</label><select id="role" name="role">
        {{#otherRoles}}<option value="{{id}}">{{name}}</option>{{/otherRoles}}
        </select></div>
        <button type="submit">Assign</button>
        </form>{{/otherRoles.0}}
        </section>
        <section class="card"><h2>Passkeys</h2>
        <div class="table"><table><caption>Passkeys and security keys</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Created (UTC)</th>
        <th scope="col">Last used (UTC)</th><th scope="col">Synced</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#passkeys}}<tr><td data-label="Name">{{name}}</td><td data-label="Type">{{type}}</td>
        <td data-label="Created">{{createdAt}}</td><td data-label="Last used">{{lastUsed}}</td><td data-label="Synced">{{synced}}</td><td>
        <form method="post" action="{{path}}/passkeys/{{id}}/delete"><input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Delete the passkey {{name}}">Delete</button></form></td></tr>
        {{/passkeys}}
        {{^passkeys}}<tr><td colspan="6">No passkey.</td></tr>{{/passkeys}}
        </tbody></table></div>
        <p class="hint">A deleted passkey no longer signs the user in; the user keeps their password and other
        factors.</p>
        </section>
        <section class="card"><h2>Multi-factor enrolments</h2>
        <div class="table"><table><caption>Enrolments</caption>
        <thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Enrolled (UTC)</th>
        <th scope="col">Last used (UTC)</th><th scope="col">Id</th></tr></thead>
        <tbody>
        {{#enrollments}}<tr><td data-label="Type">{{type}}</td><td data-label="Name">{{name}}</td>
        <td data-label="Enrolled">{{enrolledAt}}</td><td data-label="Last used">{{lastAuth}}</td><td data-label="Id"><code>{{id}}</code></td></tr>
        {{/enrollments}}
        {{^enrollments}}<tr><td colspan="5">No enrolment.</td></tr>{{/enrollments}}
        </tbody></table></div>
        <form method="post" action="{{path}}/reset-mfa">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <p class="hint">Reset MFA deletes every authenticator and the recovery code of this user.</p>
        <button type="submit" class="danger">Reset MFA</button>
        </form></section>
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    var usersAPI: UsersController { UsersController(runtime: runtime) }

    func addUserRoutes(to admin: RouterGroup<WardenRequestContext>) {
        admin.get("users") { request, context in
            await page(request, context, current: "Users") { chrome in
                try await usersPage(request, chrome: chrome, form: ConsoleUsersPage.createForm.filled([:]))
            }
        }
        admin.post("users") { request, context in
            await submit(
                request, context, "Create a User", current: "Users",
                refused: { chrome, form, error in
                    try await usersPage(
                        request, chrome: chrome, form: ConsoleUsersPage.createForm.again({ form[$0] }, refused: error))
                }
            ) { form, _ in
                let user = try await usersAPI.create(ConsoleUsersPage.createForm.body { form[$0] })
                return .redirect(userPath(user.userID) + "?done=created")
            }
        }
        admin.get("users/:id") { request, context in
            await page(request, context, current: "Users") { chrome in
                let notices = [
                    "created": "The user was created.", "saved": "The user was saved.",
                    "reset": "Every authenticator and the recovery code of this user were deleted.",
                    "verification": "A verification e-mail is on its way to the user.",
                    "password-reset": "A password reset e-mail is on its way to the user.",
                    "passkey-deleted": "The passkey was deleted.",
                ]
                return try await userPage(
                    try ManagementRequest.parameter("id", of: context), chrome: chrome,
                    notice: ConsolePages.notice(request, notices))
            }
        }
        admin.post("users/:id/blocked") { request, context in
            await change(request, context, "Update a User") { form in
                var record = try await userRecord(context)
                try await usersAPI.update(&record, with: ["blocked": .bool(form["blocked"] == "true")])
                return userPath(record.user.userID) + "?done=saved"
            }
        }
        admin.post("users/:id/roles") { request, context in
            await change(request, context, "Assign roles to a user") { form in
                let user = try await userRecord(context).user
                let roles = try await usersAPI.roleIDs(["roles": .array([.string(form["role"] ?? "")])])
                try await runtime.store.assignRoles(roles, toUser: user.userID)
                return userPath(user.userID) + "?done=saved"
            }
        }
        admin.post("users/:id/roles/:role/remove") { request, context in
            await change(request, context, "Remove roles from a user") { _ in
                let user = try await userRecord(context).user
                let role = try ManagementRequest.parameter("role", of: context)
                let roles = try await usersAPI.roleIDs(["roles": .array([.string(role)])])
                try await runtime.store.removeRoles(roles, fromUser: user.userID)
                return userPath(user.userID) + "?done=saved"
            }
        }
        admin.post("users/:id/send-verification") { request, context in
            await change(request, context, "Send a verification email") { _ in
                let user = try await userRecord(context).user
                _ = try await TicketsController(runtime: runtime).verificationJob(["user_id": .string(user.userID)])
                return userPath(user.userID) + "?done=verification"
            }
        }
        admin.post("users/:id/send-password-reset") { request, context in
            await change(request, context, "Send a password reset email") { _ in
                let user = try await userRecord(context).user
                try await runtime.accountService.sendPasswordReset(to: user, caller: AccountService.Caller())
                return userPath(user.userID) + "?done=password-reset"
            }
        }
        admin.post("users/:id/passkeys/:passkey/delete") { request, context in
            await change(request, context, "Delete an authentication method") { _ in
                let user = try await userRecord(context).user
                let id = try ManagementRequest.parameter("passkey", of: context)
                guard try await runtime.store.deleteWebAuthnCredential(id: id, userID: user.userID) else {
                    throw ConsolePages.refused(base: base, UsersController.methodNotFound)
                }
                return userPath(user.userID) + "?done=passkey-deleted"
            }
        }
        admin.post("users/:id/reset-mfa") { request, context in
            await change(request, context, "Delete a user's authenticators") { _ in
                let user = try await userRecord(context).user
                try await MFAController(runtime: runtime).resetAuthenticators(
                    userID: user.userID, clientID: Bootstrap.consoleClientID, through: "the admin console")
                return userPath(user.userID) + "?done=reset"
            }
        }
    }

    /// The console address of a user's page (the `|` of a user id percent-encoded).
    func userPath(_ userID: String) -> String {
        base + "users/" + Self.pathSegment(userID)
    }

    /// `text` percent-encoded as one path segment.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }

    private func userRecord(_ context: WardenRequestContext) async throws -> UserRecord {
        guard let record = try await users.user(id: try ManagementRequest.parameter("id", of: context)) else {
            throw ConsolePages.refused(base: base, UsersController.notFound)
        }
        return record
    }

    /// `GET /admin/users?q=&page=&per_page=` with `form` below the table.
    private func usersPage(
        _ request: Request, chrome: ConsoleChrome, form: ConsoleForm
    ) async throws -> ConsoleUsersPage {
        let parameters = ManagementRequest.query(request)
        let text = String((parameters["q"] ?? "").prefix(1000))
        let page = ConsolePager.request(parameters)
        var rows: [ConsoleUsersPage.Row] = []
        var total = 0
        var queryError: String?
        do {
            let found = try await runtime.store.searchUsers(try UsersController.query(text), sort: nil, page: page)
            total = found.total
            rows = found.items.map { record in
                let user = record.user
                return ConsoleUsersPage.Row(
                    href: userPath(user.userID), email: DisplayText.clean(user.email ?? "(no e-mail)"),
                    userID: user.userID, name: DisplayText.clean(user.name ?? ""),
                    status: user.blocked ? "Blocked" : "Active", lastLogin: user.lastLogin.map(ConsolePages.time) ?? "")
            }
        } catch let error as ManagementError {
            queryError = error.message
        }
        return ConsoleUsersPage(
            chrome: chrome, query: text, queryError: queryError, rows: rows, total: total,
            pager: ConsolePager(base + "users", [("q", text)], page: page, hasMore: page.offset + rows.count < total),
            form: ConsoleFormView(form))
    }

    private func userPage(_ userID: String, chrome: ConsoleChrome, notice: String?) async throws -> ConsoleUserPage {
        guard let user = try await users.user(id: userID)?.user else {
            throw ConsolePages.refused(base: base, UsersController.notFound)
        }
        let held = try await roles.roles(ofUser: userID)
        let all = try await runtime.store.roles(page: nil).items
        func row(_ role: Role) -> ConsoleUserPage.Role {
            .init(
                id: role.id, name: DisplayText.clean(role.name), description: DisplayText.clean(role.description ?? ""))
        }
        let enrollments = try await GuardianController(runtime: runtime).enrollments(userID: userID).map { entry in
            let member = { (key: String) in entry.objectValue?[key]?.stringValue ?? "" }
            return ConsoleUserPage.Enrollment(
                id: member("id"), type: member("type"), name: DisplayText.clean(member("name")),
                enrolledAt: member("enrolled_at"), lastAuth: member("last_auth"))
        }
        let passkeys = try await runtime.store.webAuthnCredentials(userID: userID).map { credential in
            ConsoleUserPage.Passkey(
                id: credential.id, type: credential.kind.rawValue, name: DisplayText.clean(credential.name),
                createdAt: ConsolePages.time(credential.createdAt),
                lastUsed: credential.lastAuthAt.map(ConsolePages.time) ?? "Never",
                synced: credential.backupEligible ? "Synced" : "This device only")
        }
        let details = [
            ("E-mail", user.email ?? ""), ("E-mail verified", user.emailVerified ? "Yes" : "No"),
            ("User id", user.userID), ("Name", user.name ?? ""), ("Status", user.blocked ? "Blocked" : "Active"),
            ("Created (UTC)", ConsolePages.time(user.createdAt)), ("Sign-ins", String(user.loginsCount)),
        ]
        return ConsoleUserPage(
            title: DisplayText.clean(user.email ?? user.userID), chrome: chrome, path: userPath(userID),
            blocked: user.blocked,
            details: details.map { .init(name: $0.0, value: DisplayText.clean($0.1)) },
            roles: held.map(row), otherRoles: all.filter { role in !held.contains { $0.id == role.id } }.map(row),
            enrollments: enrollments, passkeys: passkeys, notice: notice,
            accountEmails: user.userID.hasPrefix("auth0|") && user.email != nil)
    }
}
