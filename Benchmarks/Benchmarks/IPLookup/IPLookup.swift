import Benchmark
import GroupConfiguration
import WardenCore

/// The IP database (SPEC §1 `--ip-database`) with 500,000 ranges (``SyntheticIPDatabase``): a lookup from the
/// address text as a request carries it, a lookup of an already parsed address, and loading the whole TSV with
/// the table's memory (its arrays' bytes, in all and per range). Lookups cycle through 65,536 addresses so that
/// the table is not all in cache. With `scalingFactor: .kilo`, the per-lookup figures are the scaled (`*`) ones.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .thousandOperations

    Benchmark("lookup text (500k ranges)") { benchmark, database in
        let probes = database.probes
        let offset = benchmark.currentIteration &* benchmark.scaledIterations.count
        for index in benchmark.scaledIterations {
            blackHole(IPAddress(probes[(offset &+ index) & (probes.count - 1)]).flatMap(database.table.lookup))
        }
    } setup: {
        SyntheticIPDatabase.shared
    }

    Benchmark("lookup parsed address (500k ranges)") { benchmark, setup in
        let (table, addresses) = setup
        let offset = benchmark.currentIteration &* benchmark.scaledIterations.count
        for index in benchmark.scaledIterations {
            blackHole(table.lookup(addresses[(offset &+ index) & (addresses.count - 1)]))
        }
    } setup: { () -> (IPRangeTable, [IPAddress]) in
        let database = SyntheticIPDatabase.shared
        return (database.table, database.probes.map { IPAddress($0)! })
    }

    Benchmark(
        "load TSV (500k ranges)",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, Memory.tableBytes, Memory.bytesPerRange],
            timeUnits: .milliseconds, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark, tsv in
        let table = try! IPRangeTable(tsv: tsv)
        benchmark.measurement(Memory.tableBytes, table.byteCount)
        benchmark.measurement(Memory.bytesPerRange, table.byteCount / table.count)
        blackHole(table)
    } setup: {
        SyntheticIPDatabase.shared.tsv
    }
}

/// The loaded table's own memory: the bytes of its arrays, not the process's.
enum Memory {
    static let tableBytes = BenchmarkMetric.custom("table bytes", useScalingFactor: false)
    static let bytesPerRange = BenchmarkMetric.custom("table bytes per range", useScalingFactor: false)
}
