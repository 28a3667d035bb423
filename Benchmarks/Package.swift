// swift-tools-version: 6.1
import PackageDescription

/// The micro benchmarks (ordo-one/benchmark) of ARCHITECTURE.md: a package of their own, so that the main
/// package's build and tests never compile them. Run them with `scripts/bench/micro`.

/// SwiftPM names a path dependency after its folder, which is whatever the repository was cloned as.
let warden = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "warden").lowercased()

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// One executable target per group of benchmarks, its sources in `Benchmarks/<name>/`, using the given
/// products of the main package and other dependencies.
func benchmarkGroup(
    _ name: String, using products: [String], dependencies: [Target.Dependency] = []
) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + products.map { .product(name: $0, package: warden) } + dependencies,
        path: "Benchmarks/\(name)",
        swiftSettings: swiftSettings,
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
        // The same versions as the main package's.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        // IP database lookups and loading (SPEC §1 `--ip-database`).
        benchmarkGroup("IPLookup", using: ["WardenCore"], dependencies: ["GroupConfiguration"]),
        // JWS sign / verify per algorithm, the pure signing rate, token issuance without HTTP.
        benchmarkGroup(
            "JOSE", using: ["WardenCore", "WardenWire"],
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]),
        // PKCE S256 verification, user search queries, post-login rules.
        benchmarkGroup("Parsers", using: ["WardenCore", "WardenWire"], dependencies: ["GroupConfiguration"]),
        // One-time code verification (RFC 6238) and the MFA decision of a login (SPEC §12).
        benchmarkGroup("MFA", using: ["WardenCore", "WardenWire"], dependencies: ["GroupConfiguration"]),
        // WebAuthn registration (§7.1, attestation none) and assertion (§7.2) verification per algorithm (SPEC §17).
        benchmarkGroup(
            "WebAuthn", using: ["WardenWebAuthn"],
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]),
        // What the JOSE group and the ceiling server share: an access token's claims as Warden makes them.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "WardenCore", package: warden), .product(name: "WardenWire", package: warden),
            ],
            path: "Benchmarks/BenchmarkSupport",
            swiftSettings: swiftSettings
        ),
        // The configuration of the groups that time short operations (not in BenchmarkSupport: the ceiling
        // server stays free of the Benchmark library).
        .target(
            name: "GroupConfiguration",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/GroupConfiguration",
            swiftSettings: swiftSettings
        ),
        // The bare Hummingbird server that only signs a JWT: the ceiling of the token endpoint (scripts/bench/run).
        .executableTarget(
            name: "CeilingServer",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WardenCore", package: warden),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Servers/CeilingServer",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
