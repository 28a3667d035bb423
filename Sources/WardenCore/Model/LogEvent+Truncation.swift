import WardenWire

/// SPEC §11: request values copied into the log are cut to at most ``LogEvent/maximumValueLength`` characters,
/// so an unauthenticated request cannot store 60,000 characters for the retention period.
extension LogEvent {
    /// The longest string value kept, in Unicode scalars, the marker included.
    public static let maximumValueLength = 256
    /// What ends a cut value.
    public static let truncationMarker = "…[truncated]"

    /// This event with every string (each optional field, and each string, key included, anywhere in
    /// `details`) cut to ``maximumValueLength``; ids and the type, which Warden makes, are kept.
    public var truncated: LogEvent {
        var event = self
        for field in Self.requestFields {
            event[keyPath: field] = event[keyPath: field].map(Self.truncate)
        }
        event.details = Self.truncate(details)
        return event
    }

    /// The optional string fields, which may carry request values.
    private static let requestFields: [any WritableKeyPath<LogEvent, String?> & Sendable] = [
        \.description, \.clientID, \.clientName, \.ip, \.userAgent, \.userID, \.userName, \.audience, \.scope,
        \.organizationName,
    ]

    /// `value` itself when short enough, else its start and ``truncationMarker``, ``maximumValueLength`` in all.
    public static func truncate(_ value: String) -> String {
        let scalars = value.unicodeScalars
        guard scalars.count > maximumValueLength else { return value }
        let kept = maximumValueLength - truncationMarker.unicodeScalars.count
        return String(String.UnicodeScalarView(scalars.prefix(kept))) + truncationMarker
    }

    private static func truncate(_ object: [String: JSONValue]) -> [String: JSONValue] {
        Dictionary(object.map { (truncate($0.key), truncate($0.value)) }, uniquingKeysWith: { first, _ in first })
    }

    private static func truncate(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(truncate(text))
        case .array(let items): .array(items.map(truncate))
        case .object(let object): .object(truncate(object))
        case .null, .bool, .number: value
        }
    }
}
