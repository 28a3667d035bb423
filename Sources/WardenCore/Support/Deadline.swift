import Synchronization

/// Runs an operation that may never answer — a query to a frozen database, whose connection accepts but never
/// replies, ignores task cancellation — and stops waiting for it after a time limit (SPEC §11: `/readyz`
/// answers 503 within its deadline). The operation keeps running unobserved until it ends by itself.
public enum Deadline {
    /// The limit passed before the operation answered.
    public struct Exceeded: Error, CustomStringConvertible {
        public var limit: Duration
        public var description: String { "no answer within \(limit)" }

        public init(limit: Duration) {
            self.limit = limit
        }
    }

    /// How long a request may wait for the database (SPEC §11): set around each HTTP request, read by the
    /// PostgreSQL backend around each statement and transaction; `nil` (migrations, background jobs) waits as long
    /// as the database takes.
    @TaskLocal public static var databaseLimit: Duration?

    public static func run<T: Sendable>(
        within limit: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let once = Once(continuation)
            let work = Task {
                do {
                    once.resume(with: .success(try await operation()))
                } catch {
                    once.resume(with: .failure(error))
                }
            }
            let timer = Task {
                try await Task.sleep(for: limit)
                once.resume(with: .failure(Exceeded(limit: limit)))
                work.cancel()
            }
            once.whenResumed { timer.cancel() }
        }
    }

    /// The continuation, resumed by the first of the operation and the timer; later results are dropped.
    private final class Once<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var whenResumed: (@Sendable () -> Void)?
        }
        private let state: Mutex<State>

        init(_ continuation: CheckedContinuation<T, any Error>) {
            state = Mutex(State(continuation: continuation))
        }

        /// Runs `action` once resumed: now if that already happened.
        func whenResumed(_ action: @escaping @Sendable () -> Void) {
            let resumed = state.withLock { state in
                if state.continuation == nil { return true }
                state.whenResumed = action
                return false
            }
            if resumed { action() }
        }

        func resume(with result: Result<T, any Error>) {
            let taken = state.withLock { state in
                defer { state = State() }
                return (state.continuation, state.whenResumed)
            }
            taken.0?.resume(with: result)
            taken.1?()
        }
    }
}
