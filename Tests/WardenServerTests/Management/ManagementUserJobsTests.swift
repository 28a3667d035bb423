import Foundation
import HTTPTypes
import HummingbirdBcrypt
import HummingbirdTesting
import NIOCore
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/jobs/users-imports`, `/api/v2/jobs/users-exports`, `/api/v2/jobs/{id}` and its errors and download
/// (SPEC §9 "Bulk users").
@Suite("Management API: bulk-users jobs")
struct ManagementUserJobsTests {
    static let boundary = "warden-test-boundary"

    /// A `multipart/form-data` body with `fields` in order.
    static func form(_ fields: [(name: String, value: String)]) -> String {
        fields.map { field in
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\""
                + (field.name == "users" ? "; filename=\"users.json\"\r\nContent-Type: application/json" : "")
                + "\r\n\r\n\(field.value)\r\n"
        }.joined() + "--\(boundary)--\r\n"
    }

    /// `POST /jobs/users-imports` with `form` as the body (and `contentType`).
    static func postImport(
        _ session: ManagementSession, _ form: String,
        contentType: String = "multipart/form-data; boundary=\(boundary)"
    ) async throws -> TestResponse {
        try await session.http.execute(
            uri: "/api/v2/jobs/users-imports", method: .post,
            headers: [.authorization: "Bearer \(session.token)", .contentType: contentType],
            body: ByteBuffer(string: form))
    }

    /// Imports `users` (a JSON array's text) and waits for the job to end.
    static func importUsers(_ session: ManagementSession, _ users: String, upsert: Bool = false) async throws
        -> JSONValue
    {
        var fields = [("users", users), ("connection_id", Connection.databaseID)]
        if upsert { fields.append(("upsert", "true")) }
        let response = try await postImport(session, form(fields))
        #expect(response.status == .created, "\(String(buffer: response.body))")
        let id = try #require(response.json["id"]?.stringValue)
        return try await finished(session, id)
    }

    /// Polls `GET /jobs/{id}` until the job has ended (at most 10 s).
    static func finished(_ session: ManagementSession, _ id: String) async throws -> JSONValue {
        for _ in 0..<200 {
            let job = try await session.expect(.ok, .get, "jobs/\(id)")
            if let status = job["status"]?.stringValue, UserJob.Status(rawValue: status).isFinal { return job }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("job \(id) did not finish")
        return .null
    }

    /// A bcrypt hash of `password` with the `$2a$`, `$2b$` or `$2y$` prefix (the three compute the same for an
    /// ASCII password up to 72 bytes).
    static func hash(_ password: String, prefix: String) -> String {
        prefix + Bcrypt.hash(password, cost: 4).dropFirst(4)
    }

    @Test func importReportsMalformedEntriesByIndexAndTheRestSignInWithTheirPasswords() async throws {
        let fixture = try await FrontChannelFixture.make()
        let users: JSONValue = [
            [
                "email": "Ada@Example.com", "password_hash": .string(Self.hash("ada-original-1", prefix: "$2y$")),
                "user_id": "ada", "name": "Ada", "user_metadata": ["lang": "en"], "app_metadata": ["plan": "gold"],
            ],
            ["email": "not-an-address"],
            "just a string",
            [
                "email": "grace@example.com",
                "custom_password_hash": [
                    "algorithm": "bcrypt", "hash": ["value": .string(Self.hash("grace-original-2", prefix: "$2a$"))],
                ],
            ],
            ["email": "eve@example.com", "password_hash": "plaintext", "favourite": "colour"],
        ]
        try await fixture.warden.test { http in
            let admin = try await ManagementSession.make(fixture.warden, http)
            let created = try await Self.postImport(
                admin, Self.form([("users", users.serialized), ("connection_id", Connection.databaseID)]))
            #expect(created.status == .created)
            let job = created.json
            #expect(job["id"]?.stringValue?.wholeMatch(of: /job_[A-Za-z0-9]{16}/) != nil)
            #expect(job["type"] == "users_import")
            #expect(job["status"] == "pending")
            #expect(job["connection_id"] == .string(Connection.databaseID))
            #expect(job["created_at"]?.stringValue != nil)

            let done = try await Self.finished(admin, try #require(job["id"]?.stringValue))
            #expect(done["status"] == "completed")
            #expect(done["summary"] == ["inserted": 2, "updated": 0, "failed": 3, "total": 5])

            let errors = try await admin.expect(.ok, .get, "jobs/\(try #require(job["id"]?.stringValue))/errors")
            let rejected = try #require(errors.arrayValue)
            #expect(rejected.map { $0["index"] } == [1, 2, 4])
            #expect(rejected[0]["user"] == ["email": "not-an-address"])
            #expect(rejected[0]["errors"]?.arrayValue?.count == 1)
            #expect(rejected[0]["errors"]?[0]?["code"] == "INVALID_FORMAT")
            #expect(rejected[0]["errors"]?[0]?["path"] == "email")
            #expect(rejected[0]["errors"]?[0]?["message"]?.stringValue?.isEmpty == false)
            #expect(rejected[1]["errors"]?[0]?["code"] == "INVALID_TYPE")
            #expect(
                Set(rejected[2]["errors"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []) == [
                    "password_hash", "favourite",
                ])

            let ada = try #require(try await fixture.warden.runtime.store.user(id: "auth0|ada"))
            #expect(ada.user.email == "ada@example.com")
            #expect(ada.user.appMetadata == ["plan": "gold"])
            #expect(ada.passwordHash?.hasPrefix("$2y$04$") == true, "the hash is stored as given")

            for (email, password) in [("ada@example.com", "ada-original-1"), ("grace@example.com", "grace-original-2")]
            {
                var browser = Browser(http)
                let response = try await fixture.signIn(&browser, email: email, password: password)
                #expect(response.redirectParameters["code"] != nil, "\(email) signs in with the original password")
            }
            var browser = Browser(http)
            let wrong = try await fixture.signIn(&browser, email: "ada@example.com", password: "ada-original-2")
            #expect(wrong.redirectParameters["code"] == nil)
            #expect(try await fixture.events("sui").first?.details["summary"]?["inserted"] == 2)
        }
    }

    @Test func aDuplicateEmailIsRejectedWithoutUpsertAndUpdatesWithIt() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(
                .created, .post, "users",
                json: ["email": "dup@example.com", "password": "First-Passw0rd", "name": "First"])
            let entry =
                #"[{"email": "DUP@example.com", "name": "Second"}, {"email": "new@example.com"}, {"email": "new@example.com"}]"#
            let plain = try await Self.importUsers(admin, entry)
            #expect(plain["summary"] == ["inserted": 1, "updated": 0, "failed": 2, "total": 3])
            let errors = try await admin.expect(.ok, .get, "jobs/\(try #require(plain["id"]?.stringValue))/errors")
            #expect(errors.arrayValue?.map { $0["index"] } == [0, 2])
            #expect(
                errors.arrayValue?.compactMap { $0["errors"]?[0]?["code"] } == ["DUPLICATED_USER", "DUPLICATED_USER"])

            let upserted = try await Self.importUsers(admin, entry, upsert: true)
            #expect(upserted["upsert"] == true)
            #expect(upserted["summary"] == ["inserted": 0, "updated": 3, "failed": 0, "total": 3])
            let user = try #require(try await warden.runtime.store.user(email: "dup@example.com"))
            #expect(user.user.name == "Second")
            #expect(user.passwordHash != nil, "an entry without a hash keeps the password")
        }
    }

    @Test func refusedImports() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let valid = #"[{"email": "a@example.com"}]"#
            let cases: [(status: Int, code: String, form: String, contentType: String?)] = [
                (400, "invalid_body", valid, "application/json"),
                (400, "invalid_body", Self.form([("upsert", "true")]), nil),
                (400, "invalid_body", Self.form([("users", valid), ("extra", "x")]), nil),
                (400, "invalid_body", Self.form([("users", valid), ("upsert", "yes")]), nil),
                (400, "invalid_body", Self.form([("users", valid), ("connection_id", "con_other")]), nil),
                (400, "invalid_body", Self.form([("users", #""users""#)]), nil),
                (400, "invalid_body", "--\(Self.boundary)\r\nno headers end", nil),
                (
                    413, "payload_too_large",
                    Self.form([("users", "[" + String(repeating: " ", count: 500 * 1024) + "]")]), nil
                ),
            ]
            for refused in cases {
                let response = try await Self.postImport(
                    admin, refused.form,
                    contentType: refused.contentType ?? "multipart/form-data; boundary=\(Self.boundary)")
                expectError(response, status: .init(code: refused.status), code: refused.code, shape: .management)
            }
            try await admin.expectError(404, "inexistent_job", .get, "jobs/job_doesnotexist0000")
            try await admin.expectError(404, "inexistent_job", .get, "jobs/job_doesnotexist0000/errors")
            try await admin.expectError(400, "invalid_body", .post, "jobs/users-exports", json: ["format": "csv"])
            try await admin.expectError(400, "invalid_body", .post, "jobs/users-exports", json: ["fields": []])
        }
    }

    @Test func scopes() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            let reader = try await admin.restricted(to: ["read:users"])
            let creator = try await admin.restricted(to: ["create:users"])
            let form = Self.form([("users", #"[{"email": "s@example.com"}]"#)])
            expectError(
                try await Self.postImport(reader, form), status: .forbidden, code: "insufficient_scope",
                shape: .management)
            try await creator.expectError(
                403, "insufficient_scope", .post, "jobs/users-exports", json: ["format": "json"])
            let created = try await Self.postImport(creator, form)
            #expect(created.status == .created)
            let id = try #require(created.json["id"]?.stringValue)
            try await creator.expectError(403, "insufficient_scope", .get, "jobs/\(id)")
            try await creator.expectError(403, "insufficient_scope", .get, "jobs/\(id)/errors")
            _ = try await Self.finished(reader, id)
            let anonymous = ManagementSession(http: admin.http, token: "not-a-token")
            try await anonymous.expectError(401, "invalid_token", .get, "jobs/\(id)")
        }
    }

    @Test func exportWritesEveryUserOneALineAtItsLocation() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            for index in 0..<3 {
                try await admin.expect(
                    .created, .post, "users",
                    json: [
                        "email": .string("export\(index)@example.com"), "user_metadata": ["n": .number(Double(index))],
                    ])
            }
            let created = try await admin.expect(.created, .post, "jobs/users-exports", json: ["format": "json"])
            #expect(created["type"] == "users_export")
            #expect(created["format"] == "json")
            #expect(created["location"] == nil)
            let id = try #require(created["id"]?.stringValue)
            let done = try await Self.finished(admin, id)
            #expect(done["status"] == "completed")
            #expect(done["location"] == .string("http://127.0.0.1:8080/api/v2/jobs/\(id)/download"))

            let download = try await admin.call(.get, "jobs/\(id)/download")
            #expect(download.status == .ok)
            #expect(download.headers[.contentType]?.hasPrefix("application/x-ndjson") == true)
            let lines = String(buffer: download.body).split(separator: "\n").map {
                try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
            }
            #expect(
                Set(lines.compactMap { $0?["email"]?.stringValue }) == [
                    "export0@example.com", "export1@example.com", "export2@example.com",
                ])

            // The export imports back: its users exist, so each is a duplicate.
            let reimported = try await Self.importUsers(admin, String(buffer: download.body))
            #expect(reimported["summary"] == ["inserted": 0, "updated": 0, "failed": 3, "total": 3])
            let reader = try await admin.restricted(to: ["create:users"])
            try await reader.expectError(403, "insufficient_scope", .get, "jobs/\(id)/download")
        }
    }

    @Test func aJobInterruptedByAStopReadsFailed() async throws {
        let warden = try await TestWarden.make()
        var job = UserJob(
            type: .usersImport, connectionID: Connection.databaseID,
            createdAt: warden.clock.now().addingTimeInterval(-300))
        job.status = .processing
        try await warden.runtime.store.insertUserJob(job)
        let id = job.id
        try await warden.management { admin in
            let read = try await admin.expect(.ok, .get, "jobs/\(id)")
            #expect(read["status"] == "failed")
            #expect(read["status_details"]?.stringValue?.isEmpty == false)
            let errors = try await admin.expect(.ok, .get, "jobs/\(id)/errors")
            #expect(errors["status"] == "failed")
            try await admin.expectError(404, "inexistent_job", .get, "jobs/\(id)/download")
        }
    }
}
