// swift-tools-version: 6.1
import PackageDescription

/// The micro benchmarks (ordo-one/benchmark) of ARCHITECTURE.md: a package of their own, so that the main
/// package's build and tests never compile them. Run them with `scripts/bench-micro`.

/// SwiftPM names a path dependency after its folder, which is whatever the repository was cloned as.
let warden = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "warden").lowercased()

/// One executable target per group of benchmarks, its sources in `Benchmarks/<name>/`, using the given
/// products of the main package.
func benchmarkGroup(_ name: String, using products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + products.map { .product(name: $0, package: warden) },
        path: "Benchmarks/\(name)",
        swiftSettings: [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ],
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "WardenBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // The malloc interposer gives the malloc counts (mallocCountTotal, ...) on Linux with Swift 6.3.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // IP database lookups and loading (SPEC §1 `--ip-database`).
        benchmarkGroup("IPLookup", using: ["WardenCore"])
    ],
    swiftLanguageModes: [.v6]
)
