import Foundation
import Logging
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The IP database service (SPEC §1 `--ip-database`): load, reload on SIGHUP, a bad file keeps the old table,
/// lookups never see an empty table during a reload.
@Suite("IP intelligence")
struct IPIntelligenceTests {
    static let logger = Logger(label: "ip-intelligence-test") { _ in SwiftLogNoOpLogHandler() }
    static let first = "127.0.0.0\t127.0.0.255\t64500\tDE\tFIRST\n::1\t::1\t64500\tDE\tFIRST\n"
    static let second = "127.0.0.0\t127.0.0.255\t64600\tFR\tSECOND\n::1\t::1\t64600\tFR\tSECOND\n"
    static let firstInfo = IPInfo(asn: 64500, countryCode: "DE")
    static let secondInfo = IPInfo(asn: 64600, countryCode: "FR")

    @Test func unknownWithoutADatabase() async throws {
        let intelligence = IPIntelligence()
        #expect(intelligence.lookup("127.0.0.1") == nil)
        try await intelligence.reload(logger: Self.logger)
        #expect(intelligence.lookup("127.0.0.1") == nil)
    }

    @Test func loadsTheFixture() async throws {
        let intelligence = IPIntelligence()
        try await intelligence.load(path: IPDatabaseFile.fixturePath, logger: Self.logger)
        #expect(intelligence.lookup("127.0.0.1") == IPInfo(asn: 64500, countryCode: "DE"))
        #expect(intelligence.lookup("127.0.0.2") == IPInfo(asn: 64501, countryCode: "US"))
        #expect(intelligence.lookup("::ffff:127.0.0.2") == IPInfo(asn: 64501, countryCode: "US"))
        #expect(intelligence.lookup("not an address") == nil)
    }

    @Test func reloadReadsTheFileAgain() async throws {
        let file = try IPDatabaseFile(Self.first)
        let intelligence = IPIntelligence()
        try await intelligence.load(path: file.path, logger: Self.logger)
        #expect(intelligence.lookup("127.0.0.1") == Self.firstInfo)
        try file.replace(with: Self.second)
        try await intelligence.reload(logger: Self.logger)
        #expect(intelligence.lookup("127.0.0.1") == Self.secondInfo)
    }

    @Test func aBadFileKeepsTheLoadedTable() async throws {
        let file = try IPDatabaseFile(Self.first)
        let intelligence = IPIntelligence()
        try await intelligence.load(path: file.path, logger: Self.logger)
        try file.replace(with: Self.second + "127.0.1.0\t127.0.1.255\tAS1\tFR\tBAD\n")
        let error = try await #require(throws: IPDatabaseError.self) {
            try await intelligence.reload(logger: Self.logger)
        }
        #expect(error.path == file.path)
        #expect(error.line == 3)
        #expect(intelligence.lookup("127.0.0.1") == Self.firstInfo)
    }

    /// Lookups running while the table is swapped back and forth see one table or the other, never none.
    @Test func lookupsDuringReloadsNeverSeeNothing() async throws {
        let file = try IPDatabaseFile(Self.first)
        let intelligence = IPIntelligence()
        try await intelligence.load(path: file.path, logger: Self.logger)
        let expected: [IPInfo?] = [Self.firstInfo, Self.secondInfo]
        let (lookups, unexpected) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for address in ["127.0.0.1", "::1", "::ffff:127.0.0.9"] {
                group.addTask {
                    var (lookups, unexpected) = (0, 0)
                    while !Task.isCancelled {
                        lookups += 1
                        if !expected.contains(intelligence.lookup(address)) { unexpected += 1 }
                        await Task.yield()
                    }
                    return (lookups, unexpected)
                }
            }
            for round in 0..<20 {
                try file.replace(with: round.isMultiple(of: 2) ? Self.second : Self.first)
                try await intelligence.reload(logger: Self.logger)
            }
            group.cancelAll()
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(lookups > 0)
        #expect(unexpected == 0)
    }

    @Test func theServiceReloadsOnEachSignalAndSurvivesABadFile() async throws {
        let file = try IPDatabaseFile(Self.first)
        let intelligence = IPIntelligence()
        try await intelligence.load(path: file.path, logger: Self.logger)
        let service = IPDatabaseReloadService(ipIntelligence: intelligence, logger: Self.logger)
        let (signals, signal) = AsyncStream.makeStream(of: Void.self)
        try file.replace(with: "garbage\n")
        signal.yield()
        try file.replace(with: Self.second)
        signal.yield()
        signal.finish()
        await service.reload(on: signals)
        #expect(intelligence.lookup("127.0.0.1") == Self.secondInfo)
    }

    /// A real SIGHUP to this test process, sent only once the handler is registered (an unhandled SIGHUP would
    /// end the process).
    @Test(.timeLimit(.minutes(1)))
    func sighupReloads() async throws {
        let file = try IPDatabaseFile(Self.first)
        let intelligence = IPIntelligence()
        try await intelligence.load(path: file.path, logger: Self.logger)
        let service = IPDatabaseReloadService(ipIntelligence: intelligence, logger: Self.logger)
        let hangups = await IPDatabaseReloadService.hangups()
        let reloading = Task { await service.reload(on: hangups) }
        defer { reloading.cancel() }
        try file.replace(with: Self.second)
        #expect(kill(getpid(), SIGHUP) == 0)
        while intelligence.lookup("127.0.0.1") != Self.secondInfo {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// A TSV in a temporary folder, replaced the way an operator should: a new file renamed over the old one.
private struct IPDatabaseFile {
    /// `tests/fixtures/ip2asn-sample.tsv`.
    static let fixturePath = ExternalTools.repositoryRoot.appendingPathComponent("tests/fixtures/ip2asn-sample.tsv")
        .path

    let directory: URL
    var path: String { directory.appendingPathComponent("ip2asn.tsv").path }

    init(_ contents: String) throws {
        directory = try ExternalTools.temporaryDirectory()
        try replace(with: contents)
    }

    func replace(with contents: String) throws {
        let staging = directory.appendingPathComponent("ip2asn.tsv.new")
        try Data(contents.utf8).write(to: staging)
        guard rename(staging.path, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
