import Foundation
import WardenCore
import WardenWire

/// The log event of a change made in the console (SPEC §14, §10): `sapi` when it succeeded, `fapi` when it was
/// refused or failed, with the admin's user id and the console's client id, never the form's values.
struct ConsoleAudit {
    let eventLog: EventLog
    let clock: any WardenClock
    let userID: String
    let ip: String?
    let userAgent: String?
    let path: String

    func record<T>(_ description: String, _ operation: () async throws -> T) async throws -> T {
        do {
            let result = try await operation()
            log(.managementSucceeded, description, failure: nil)
            return result
        } catch {
            log(.managementFailed, description, failure: "\(error)")
            throw error
        }
    }

    private func log(_ type: LogEventType, _ description: String, failure: String?) {
        var details: [String: JSONValue] = ["request": ["method": "POST", "path": .string(path)]]
        if let failure { details["error"] = .string(String(failure.prefix(200))) }
        eventLog.record(
            LogEvent(
                date: clock.now(), type: type, description: description, clientID: Bootstrap.consoleClientID,
                clientName: "Warden Console", ip: ip, userAgent: userAgent, userID: userID, details: details))
    }
}
