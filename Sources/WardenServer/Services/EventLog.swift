import Foundation
import Logging
import Metrics
public import ServiceLifecycle
import Synchronization
public import WardenCore

/// Writes log events (SPEC §10) off the request path: `record` appends to an in-memory buffer and returns;
/// a background service flushes the buffer to storage every 100 ms in one batch, so an event is readable
/// within 1 s and a failing write never fails a request (it is retried, then dropped with a log line). Events past
/// the retention are deleted by ``HousekeepingService``, in batches, never at start-up.
public final class EventLog: Service {
    private let buffer = Mutex<[WardenCore.LogEvent]>([])
    private let store: any LogStore
    private let logger: Logger
    /// The most events held while storage is unavailable; beyond it the oldest are dropped.
    private static let capacity = 100_000
    /// README "Metrics": events waiting to be written (sampled at each flush), the time of each batch write, and
    /// the events dropped at ``capacity``.
    private let queueDepth = Gauge(label: "warden_event_log_queue_depth")
    private let writeDuration = Metrics.Timer(label: "warden_event_log_write_seconds")
    private let droppedEvents = Counter(label: "warden_event_log_dropped_total")

    init(store: any LogStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The event types that also get a line in the process log (at `notice`), so an operator following the
    /// log sees failed sign-ins, lockouts and decisions without querying `/api/v2/logs`.
    static let securityTypes: Set<LogEventType> = [
        .loginFailure, .wrongPassword, .unknownUser, .accountLocked, .deviceAccepted, .deviceRejected,
        .deviceAuthFailed, .refreshTokenReused,
    ]

    /// Queues an event, its request values cut to 256 characters (SPEC §11, ``WardenCore/LogEvent/truncated``);
    /// never blocks and never throws.
    public func record(_ event: WardenCore.LogEvent) {
        let event = event.truncated
        OperationalMetrics.observe(event)
        if Self.securityTypes.contains(event.type) {
            var metadata: Logger.Metadata = ["type": "\(event.type.rawValue)"]
            if let clientID = event.clientID {
                metadata["client_id"] = "\(DisplayText.clean(String(clientID.prefix(64))))"
            }
            if let userID = event.userID { metadata["user_id"] = "\(userID)" }
            if let ip = event.ip { metadata["ip"] = "\(ip)" }
            logger.notice("\(event.description ?? event.type.rawValue)", metadata: metadata)
        }
        let dropped = buffer.withLock { events in
            let excess = max(0, events.count - Self.capacity + 1)
            if excess > 0 { events.removeFirst(excess) }
            events.append(event)
            return excess
        }
        if dropped > 0 { droppedEvents.increment(by: dropped) }
    }

    /// Writes what is queued now (also used by tests and at shutdown).
    public func flush() async {
        let batch = buffer.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
        queueDepth.record(batch.count)
        guard !batch.isEmpty else { return }
        for start in stride(from: 0, to: batch.count, by: 500) {
            let slice = Array(batch[start..<min(start + 500, batch.count)])
            let started = ContinuousClock.now
            do {
                try await store.appendLogs(slice)
                writeDuration.record(duration: ContinuousClock.now - started)
            } catch {
                logger.error("event log write failed", metadata: ["error": "\(error)", "events": "\(slice.count)"])
                buffer.withLock { $0.insert(contentsOf: slice, at: 0) }
                queueDepth.record(buffer.withLock { $0.count })
                return
            }
        }
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(100)) }
            await flush()
        }
        await flush()
    }
}
