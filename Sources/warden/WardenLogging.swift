import Foundation
import Logging
import WardenCore
import WardenWire

/// Structured logging: one JSON object per line on stdout (timestamp, level, message, metadata such as
/// `hb.request.id`), or human-readable lines for a terminal. `--log-level` / `WARDEN_LOG_LEVEL` sets the level,
/// `--log-format` / `WARDEN_LOG_FORMAT` the format (text when stdout is a terminal, JSON otherwise).
enum WardenLogging {
    /// `json` or `text`.
    enum Format: String {
        case json, text
    }

    /// What ``StoreOptions/logging(_:)`` resolved.
    struct Settings {
        var level: Logger.Level = .info
        var format: Format = isatty(STDOUT_FILENO) == 0 ? .json : .text

        static func level(named name: String) -> Logger.Level? {
            Logger.Level(rawValue: name.lowercased())
        }
    }

    static func bootstrap(label: String, settings: Settings) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch settings.format {
                case .json: JSONLogHandler(label: label)
                case .text: StreamLogHandler.standardOutput(label: label)
                }
            handler.logLevel = settings.level
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

    /// The record's keys come out sorted (``JSONValue``'s writer compares them as Swift strings);
    /// `JSONSerialization`'s `.sortedKeys` compared them with a locale, which mapped ICU's collation data into
    /// every server at its first log line.
    func log(event: Logging.LogEvent) {
        var record: [String: JSONValue] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            record[key] = .string(value.description)
        }
        record["time"] = .string(RFC3339Timestamp.string(from: Date()))
        record["level"] = .string(event.level.rawValue)
        record["message"] = .string(event.message.description)
        record["logger"] = .string(label)
        var line = Data(JSONValue.object(record).serialized.utf8)
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }
}
