public import Benchmark

extension Benchmark.Configuration {
    /// For operations of nanoseconds to microseconds: 1000 operations per measured iteration
    /// (`scalingFactor: .kilo`, so the per-operation figures are the scaled `*` ones), wall clock, throughput and
    /// malloc counts, at most 1 s per benchmark. `scripts/bench/lib/report.py` divides by the same 1000.
    public static var thousandOperations: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal],
            timeUnits: .nanoseconds,
            scalingFactor: .kilo,
            maxDuration: .seconds(1)
        )
    }
}
