import Logging
import Synchronization

/// The PostgreSQL pool's log until the database first answered: AsyncKit logs a failed connection attempt at
/// `error` with the raw `PSQLError` (issue 33), which printed before Warden's own sentence ("Cannot reach
/// PostgreSQL at …", ``DatabaseUnreachableError``) when the database was down at start. Until ``LogGate/open()``
/// the pool says nothing; from then on it logs as the logger it wraps does.
struct StartupGatedLogHandler: LogHandler {
    var base: any LogHandler
    let gate: LogGate

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: Logging.LogEvent) {
        guard gate.isOpen else { return }
        base.log(event: event)
    }
}

/// Whether ``StartupGatedLogHandler`` lets messages through: closed until the database first answered.
final class LogGate: Sendable {
    private let opened = Atomic(false)

    var isOpen: Bool { opened.load(ordering: .relaxed) }

    func open() { opened.store(true, ordering: .relaxed) }

    /// `logger`, silent until this gate opens.
    func gating(_ logger: Logger) -> Logger {
        var gated = logger
        gated.handler = StartupGatedLogHandler(base: logger.handler, gate: self)
        return gated
    }
}
