import Synchronization

/// The device streams (SPEC §7.5) open on this node, by enrolment id: tells each one when to look for
/// transactions it has not sent yet. Each connection consumes its own refresh requests one at a time, so what
/// it sends keeps its order; requests that arrive while it is busy are merged into one more pass.
final class DeviceStreamHub: Sendable {
    private struct Connections {
        var lastID = 0
        var byEnrollment: [String: [Int: AsyncStream<Void>.Continuation]] = [:]
    }

    private let connections = Mutex(Connections())

    /// Runs `body` as one connection of `enrollmentID` for as long as it lasts. `refreshes` yields once at
    /// once (the pending transactions go first), then after each ``refresh(enrollmentID:)`` or ``refreshAll()``
    /// made meanwhile.
    func connection(
        enrollmentID: String, _ body: (_ refreshes: AsyncStream<Void>) async throws -> Void
    ) async rethrows {
        let (refreshes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield()
        let id = connections.withLock { connections in
            connections.lastID += 1
            connections.byEnrollment[enrollmentID, default: [:]][connections.lastID] = continuation
            return connections.lastID
        }
        defer {
            connections.withLock { connections in
                connections.byEnrollment[enrollmentID]?[id] = nil
                if connections.byEnrollment[enrollmentID]?.isEmpty == true {
                    connections.byEnrollment[enrollmentID] = nil
                }
            }
            continuation.finish()
        }
        try await body(refreshes)
    }

    /// Asks this node's connections of `enrollmentID` (if any) to send what they have not sent yet.
    func refresh(enrollmentID: String) {
        let continuations = connections.withLock { $0.byEnrollment[enrollmentID].map { Array($0.values) } ?? [] }
        for continuation in continuations { continuation.yield() }
    }

    /// Asks every connection of this node to send what it has not sent yet.
    func refreshAll() {
        let continuations = connections.withLock { $0.byEnrollment.values.flatMap(\.values) }
        for continuation in continuations { continuation.yield() }
    }
}
