import Foundation
import Logging
import WardenCore
import WardenStorage

/// `warden-bench-seed DATABASE_URL EVENTS [OLDEST_DAYS NEWEST_DAYS]`: appends EVENTS log events to a migrated
/// Warden database through the storage layer's batch insert (``SQLStore/appendLogs(_:)``, what the event log
/// writes), for `scripts/bench-scale` (issue 16). The events are spread evenly between OLDEST_DAYS and NEWEST_DAYS
/// ago (defaults 29 and 1.5: inside the default 30-day retention, and all of them outside a 1-day one), one in ten a
/// failed login (`fp`), the others logins, token exchanges and Management API calls, each of one of 100,000 users.
@main
struct BenchSeed {
    static let batch = 5_000
    static let types: [LogEventType] = [
        .wrongPassword, .loginSuccess, .loginSuccess, .codeExchangeSucceeded, .codeExchangeSucceeded,
        .refreshExchangeSucceeded, .refreshExchangeSucceeded, .clientCredentialsSucceeded, .managementSucceeded,
        .loginSuccess,
    ]

    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2 || arguments.count == 4, let count = Int(arguments[arguments.startIndex + 1]),
            count > 0
        else {
            FileHandle.standardError.write(
                Data("usage: warden-bench-seed DATABASE_URL EVENTS [OLDEST_DAYS NEWEST_DAYS]\n".utf8))
            exit(2)
        }
        let numbers = arguments.dropFirst(2).compactMap(Double.init)
        let (oldest, newest) = numbers.count == 2 ? (numbers[0], numbers[1]) : (29.0, 1.5)
        var logger = Logger(label: "warden-bench-seed")
        logger.logLevel = .warning
        let store = try await SQLStore.connect(url: arguments[arguments.startIndex], logger: logger)
        let now = Date()
        let start = now.addingTimeInterval(-oldest * 86400)
        let step = (oldest - newest) * 86400 / Double(count)
        let began = ContinuousClock.now
        var written = 0
        do {
            while written < count {
                let events = (written..<min(written + batch, count)).map { index in
                    let user = index % 100_000
                    return LogEvent(
                        date: start.addingTimeInterval(Double(index) * step), type: types[index % types.count],
                        description: index % 10 == 0 ? "Wrong email or password." : nil,
                        clientID: "bench-client-\(index % 20)", clientName: "Bench app \(index % 20)",
                        ip: "198.51.100.\(index % 250 + 1)", userAgent: "Mozilla/5.0 (bench)",
                        userID: "auth0|bench\(user)", userName: "user\(user)@example.com")
                }
                try await store.appendLogs(events)
                written += events.count
                if written % 500_000 == 0 || written == count {
                    let seconds = (ContinuousClock.now - began) / .seconds(1)
                    FileHandle.standardError.write(Data("seeded \(written) events in \(Int(seconds)) s\n".utf8))
                }
            }
        } catch {
            try? await store.shutdown()
            throw error
        }
        try await store.shutdown()
    }
}
