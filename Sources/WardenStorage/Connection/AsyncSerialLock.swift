import NIOCore
import Synchronization

/// A first-come, first-served lock for async code: ``withLock(_:)`` runs one body at a time, and a body keeps
/// the lock across its suspension points (unlike an actor, which lets other calls in while it awaits).
///
/// SQLStore serializes everything it sends to its one SQLite connection through this lock, so that the
/// statements of a `BEGIN IMMEDIATE … COMMIT` sequence never interleave with another task's statements.
/// A waiting task is not woken by cancellation: it waits for its turn, like a blocking mutex.
final class AsyncSerialLock: Sendable {
    private struct State {
        var isLocked = false
        var waiters = CircularBuffer<CheckedContinuation<Void, Never>>()
    }

    private let state = Mutex(State())

    /// Runs `body` once every earlier caller's body has finished.
    func withLock<T>(_ body: () async throws -> T) async rethrows -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }

    private func lock() async {
        let acquired = state.withLock { state in
            guard !state.isLocked else { return false }
            state.isLocked = true
            return true
        }
        guard !acquired else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquiredMeanwhile = state.withLock { state in
                guard state.isLocked else {
                    state.isLocked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if acquiredMeanwhile { continuation.resume() }
        }
    }

    /// Hands the lock to the oldest waiter (it stays locked), or releases it.
    private func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let next = state.waiters.popFirst() else {
                state.isLocked = false
                return nil
            }
            return next
        }
        next?.resume()
    }
}
