import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// `/api/v2/logs` (SPEC §9, §10) and the `sapi`/`fapi` events the Management API writes.
@Suite("Management API: logs")
struct ManagementLogsTests {
    @Test func changesWriteSapiAndRefusalsFapi() async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expect(.created, .post, "roles", json: ["name": "Logged"])
            try await admin.expectError(400, "invalid_body", .post, "roles", json: ["name": "Bad", "x": 1])
            await warden.flushLogs()
            let success = try await admin.expect(.ok, .get, "logs?q=type%3Asapi")
            let event = try #require(success.arrayValue?.first)
            #expect(success.arrayValue?.count == 1)
            #expect(event["description"] == "Create a role")
            #expect(event["client_id"] == .string(warden.managementClientID))
            #expect(event["client_name"] == "Warden Management")
            #expect(event["details"]?["request"] == ["method": "POST", "path": "/api/v2/roles"])
            #expect(event["details"]?["response"]?["statusCode"] == 201)
            #expect(event["date"]?.stringValue?.hasSuffix("Z") == true)
            let failure = try await admin.expect(.ok, .get, "logs?search=type%3Afapi")
            #expect(failure.arrayValue?.first?["details"]?["response"]?["body"]?["errorCode"] == "invalid_body")

            let id = try #require(event["log_id"]?.stringValue)
            #expect(try await admin.expect(.ok, .get, "logs/\(id)") == event)
            try await admin.expectError(404, "inexistent_log", .get, "logs/nope")
        }
    }

    @Test func searchTermsOrAndTotals() async throws {
        let warden = try await TestWarden.make()
        let now = warden.clock.now()
        for (index, type) in ["s", "f", "s", "sapi", "fp"].enumerated() {
            warden.runtime.eventLog.record(
                LogEvent(
                    date: now.addingTimeInterval(Double(index)), type: LogEventType(rawValue: type),
                    clientID: index < 3 ? "web" : "cli", userName: "user \(index)@example.com"))
        }
        await warden.flushLogs()
        try await warden.management { admin in
            let both = try await admin.expect(.ok, .get, "logs?q=type%3A(s+OR+f)&include_totals=true&sort=date%3A1")
            #expect(both["total"] == 3)
            #expect(both["logs"]?.strings("type") == ["s", "f", "s"])
            let ored = try await admin.expect(.ok, .get, "logs?q=type%3As+OR+type%3Afp+AND+client_id%3Acli")
            #expect(ored.strings("type") == ["fp"])
            let quoted = try await admin.expect(.ok, .get, "logs?q=user_name%3A%22user+1%40example.com%22")
            #expect(quoted.strings("type") == ["f"])
            let newestFirst = try await admin.expect(.ok, .get, "logs?q=client_id%3Aweb&per_page=2&page=0")
            #expect(newestFirst.strings("user_name") == ["user 2@example.com", "user 1@example.com"])
            let past = try await admin.expect(.ok, .get, "logs?q=client_id%3Aweb&per_page=2&page=9")
            #expect(past == [])
        }
    }

    @Test(arguments: [
        "type", "type:", "colour:red", "type:s OR client_id:x", "type:s type:f", "type:(s OR", "type:\"open",
        "type:s AND",
    ])
    func malformedQueriesAre400(q: String) async throws {
        let warden = try await TestWarden.make()
        try await warden.management { admin in
            try await admin.expectError(400, "invalid_query_string", .get, "logs?q=\(formEncode(q))")
        }
    }

    @Test func checkpointPagingReadsForwardOldestFirst() async throws {
        let warden = try await TestWarden.make()
        for index in 0..<5 {
            warden.runtime.eventLog.record(
                LogEvent(date: warden.clock.now(), type: .loginSuccess, description: "event \(index)"))
        }
        await warden.flushLogs()
        try await warden.management { admin in
            let first = try await admin.expect(.ok, .get, "logs?take=2")
            #expect(first.strings("description") == ["event 0", "event 1"])
            let checkpoint = try #require(first.arrayValue?.last?["log_id"]?.stringValue)
            let next = try await admin.expect(.ok, .get, "logs?from=\(checkpoint)&take=100")
            #expect(next.strings("description") == ["event 2", "event 3", "event 4"])
            try await admin.expectError(400, "invalid_query_string", .get, "logs?from=\(checkpoint)&take=101")
        }
    }
}
