// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for OnCue's parsers (issue 21). A package of its own so that the main build never sees
// `-sanitize=fuzzer`: scripts/fuzz.sh builds it with ONCUE_FUZZ_INSTRUMENT=1, which makes the main package
// instrument Geo, RegionRefresh, ChainImport and TraceReplay (coverage + AddressSanitizer) and nothing else.
let sanitizers = ["-sanitize=fuzzer,address"]
let chainImport = Target.Dependency.product(name: "ChainImport", package: "oncue")
let traceReplay = Target.Dependency.product(name: "TraceReplay", package: "oncue")

// Each fuzzer is an executable whose `@main` hands `LLVMFuzzerTestOneInput` to libFuzzer's driver: SwiftPM links
// an executable's entry point under a renamed symbol, so libFuzzer's own `main` cannot be used.
let fuzzers: [(name: String, uses: [Target.Dependency])] = [
    ("CSVTokenizerFuzzer", [chainImport]),
    ("CSVRowsFuzzer", [chainImport]),
    ("EncodingFuzzer", [chainImport]),
    ("GPXFuzzer", ["TraceFuzzChecks", traceReplay]),
    ("PLTFuzzer", ["TraceFuzzChecks", traceReplay]),
    ("CSVTraceFuzzer", ["TraceFuzzChecks", traceReplay]),
    ("GeoJSONFuzzer", ["TraceFuzzChecks", traceReplay]),
    ("RequestDiffFuzzer", [.product(name: "RegionRefresh", package: "oncue"), .product(name: "OnCueContract", package: "oncue")]),
    ("GeohashFuzzer", [.product(name: "Geo", package: "oncue")]),
    ("NameTextFuzzer", [.product(name: "RegionRefresh", package: "oncue"), .product(name: "LocationStore", package: "oncue")]),
]

let package = Package(
    name: "OnCueFuzz",
    dependencies: [.package(name: "oncue", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", .product(name: "Geo", package: "oncue")]),
        .target(name: "TraceFuzzChecks", dependencies: ["FuzzSupport", traceReplay]),
    ] + fuzzers.map { fuzzer in
        .executableTarget(
            name: fuzzer.name,
            dependencies: ["FuzzSupport"] + fuzzer.uses,
            swiftSettings: [.unsafeFlags(sanitizers)],
            linkerSettings: [.unsafeFlags(sanitizers)]
        )
    },
    swiftLanguageModes: [.v6]
)
