// swift-tools-version:6.1
import PackageDescription

// OnCue's benchmarks, a package of their own beside the product (as Fuzz/ is): `oncue-bench nearest|store|import|
// geo|replay`. Build them in release for figures (BENCHMARKS.md names each command):
//   swift build -c release --package-path Benchmarks
//   Benchmarks/.build/release/oncue-bench nearest --stores … --queries …
// Every figure is a ratio against a baseline measured in the same run.
let package = Package(
    name: "OnCueBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "oncue", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "oncue-bench",
            dependencies: [
                .product(name: "Geo", package: "oncue"),
                .product(name: "LocationStore", package: "oncue"),
                .product(name: "SQLiteStore", package: "oncue"),
                .product(name: "PostGISStore", package: "oncue"),
                .product(name: "RegionRefresh", package: "oncue"),
                .product(name: "OnCueContract", package: "oncue"),
                .product(name: "OnCueClient", package: "oncue"),
                .product(name: "ChainImport", package: "oncue"),
                .product(name: "TraceReplay", package: "oncue"),
                .product(name: "CommandLineOutput", package: "oncue"),
                .product(name: "SyntheticData", package: "oncue"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        // Runs the built oncue-bench on small inputs: the commands parse what BENCHMARKS.md gives them and print figures.
        .testTarget(name: "OnCueBenchTests", dependencies: ["oncue-bench"]),
    ],
    swiftLanguageModes: [.v6]
)
