import Logging
import NIOPosix
import Synchronization
import WardenCore

/// The IP database of `--ip-database` (SPEC §1, §8): address → ASN and country, for device binding by ASN and
/// the `geoip.countryCode` of post-login rules. Empty until loaded; without a database every lookup is `nil`
/// (ASN and country unknown).
///
/// The loaded ``IPRangeTable`` is immutable and sits behind a `Mutex` held only to copy or swap one reference:
/// a (re)load reads and checks the whole file first, off the request threads, and then swaps the table in, so a
/// lookup during a reload sees the old table or the new one, never none, and never waits for the file.
final class IPIntelligence: Sendable {
    private struct Loaded {
        var path: String
        var table: IPRangeTable
    }

    private let loaded = Mutex<Loaded?>(nil)

    /// What is known about `address` (IPv4 or IPv6 text; `::ffff:a.b.c.d` looks up as IPv4), or `nil`.
    func lookup(_ address: String) -> IPInfo? {
        guard let address = IPAddress(address) else { return nil }
        return loaded.withLock { $0?.table }?.lookup(address)
    }

    /// Reads the ip2asn TSV at `path` on NIO's blocking-I/O pool and, when the whole file is good, makes it the
    /// database; otherwise throws an ``IPDatabaseError`` naming the file (and line) and keeps what was loaded.
    /// Logs the number of ranges and the time taken.
    func load(path: String, logger: Logger) async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let table = try await NIOThreadPool.singleton.runIfActive { try IPRangeTable(contentsOfFile: path) }
        loaded.withLock { $0 = Loaded(path: path, table: table) }
        logger.info(
            "ip database loaded",
            metadata: [
                "path": "\(path)", "ranges": "\(table.count)", "bytes": "\(table.byteCount)",
                "duration": "\(clock.now - started)",
            ])
    }

    /// Loads the file of the last ``load(path:logger:)`` again, as it is now (SIGHUP, see
    /// ``IPDatabaseReloadService``); nothing to do when no database was loaded.
    func reload(logger: Logger) async throws {
        guard let path = loaded.withLock({ $0?.path }) else { return }
        try await load(path: path, logger: logger)
    }
}
