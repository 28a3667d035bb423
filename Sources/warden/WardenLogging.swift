import Foundation
import Logging

/// Structured logging: one JSON object per line on stdout (timestamp, level, message, metadata such as
/// `hb.request.id`), or human-readable lines when stdout is a terminal. `WARDEN_LOG_LEVEL` sets the level.
enum WardenLogging {
    static func bootstrap(label: String) -> Logger {
        let level =
            ProcessInfo.processInfo.environment["WARDEN_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
        let json = isatty(STDOUT_FILENO) == 0
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json ? JSONLogHandler(label: label) : StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: label)
    }
}

/// Writes each record as one line of JSON.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var record: [String: Any] = [
            "time": ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue,
            "message": event.message.description,
            "logger": label,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            record[key] = value.description
        }
        guard
            var line = try? JSONSerialization.data(
                withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }
}
