@preconcurrency import Dispatch
import Logging
import ServiceLifecycle

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Reloads the IP database (`--ip-database`, SPEC §1) on SIGHUP, the usual "re-read your files" signal: the
/// operator replaces the file (write a new one, then rename it over the old, so that no half-written file is
/// read) and sends `kill -HUP`. A file that does not load leaves the current table in place and logs an error;
/// requests are served throughout (``IPIntelligence``). Without `--ip-database` a SIGHUP does nothing.
struct IPDatabaseReloadService: Service {
    let ipIntelligence: IPIntelligence
    let logger: Logger

    func run() async throws {
        await reload(on: Self.hangups().cancelOnGracefulShutdown())
    }

    /// Reloads once for each element of `signals` until it ends.
    func reload(on signals: some AsyncSequence<Void, Never>) async {
        for await _ in signals {
            do {
                try await ipIntelligence.reload(logger: logger)
            } catch {
                logger.error("ip database not reloaded, the loaded one stays", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Each SIGHUP the process receives from now on, for as long as the sequence is iterated; signals that
    /// arrive during a reload are folded into one more reload. Returns once the handler is in place, so that a
    /// SIGHUP sent afterwards is caught rather than ending the process.
    static func hangups() async -> AsyncStream<Void> {
        #if canImport(Darwin)
            // Darwin delivers signals to dispatch sources only when they are otherwise ignored.
            signal(SIGHUP, SIG_IGN)
        #endif
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        source.setEventHandler { continuation.yield() }
        continuation.onTermination = { _ in source.cancel() }
        await withCheckedContinuation { registered in
            source.setRegistrationHandler { registered.resume() }
            source.resume()
        }
        return signals
    }
}
