// swift-tools-version:6.1
import PackageDescription

// Module order (docs/architecture.md): Geo ← (OnCueContract, Gazetteer); OnCueContract ← LocationStore ← (SQLiteStore,
// PostGISStore, RegionRefresh, ChainImport, which also import Gazetteer) ← (TraceReplay, StoreOpening) ← RefreshServer ← oncue; OnCueClient (the phone side) sits on OnCueContract.
// A module never imports one above it; only StoreOpening names the store types. CSQLite, CLibCrypto and CPrefetch are C
// leaves; only SQLiteStore links SQLite.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// Fuzz/ (scripts/fuzz.sh) sets ONCUE_FUZZ_INSTRUMENT so that the modules whose parsers it fuzzes are built with
// libFuzzer's coverage and AddressSanitizer, and nothing else is: their dependencies (NIO, PostgresNIO, crypto)
// build as usual, which keeps the fuzz build short. Unset, as in every other build, this adds nothing.
let fuzzed: [SwiftSetting] = Context.environment["ONCUE_FUZZ_INSTRUMENT"] == nil
    ? [] : [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "oncue",
    // iOS for the client side (OnCueContract); the server and the CLI run on Linux and macOS.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "oncue", targets: ["oncue"]),
        .library(name: "Geo", targets: ["Geo"]),
        // The region-refresh wire contract: what a phone app links to speak to the server (Foundation and Geo only).
        .library(name: "OnCueContract", targets: ["OnCueContract"]),
        // The phone side: the region-refresh client (and, to come, the refresh loop and card decision) an app links.
        .library(name: "OnCueClient", targets: ["OnCueClient"]),
        .library(name: "LocationStore", targets: ["LocationStore"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostGISStore", targets: ["PostGISStore"]),
        .library(name: "RegionRefresh", targets: ["RegionRefresh"]),
        .library(name: "ChainImport", targets: ["ChainImport"]),
        .library(name: "TraceReplay", targets: ["TraceReplay"]),
        .library(name: "CommandLineOutput", targets: ["CommandLineOutput"]),
        // Seeded data for the tests and the benchmark package (Benchmarks/), not part of the product.
        .library(name: "SyntheticData", targets: ["SyntheticData"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Named for the server's connection handler (HTTP parts, parser errors); Hummingbird brings both already.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The app backend's access tokens on the public routes (`--client-jwt`): HS256, and ES256/RS256 from a JWKS.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        // SHA-256 of admin keys; swift-crypto is already in the graph through PostgresNIO.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "CPrefetch"),
        // OpenSSL's libcrypto from the system, for the SHA-256 of each imported file.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "Geo", swiftSettings: strict + fuzzed),
        // What the binary knows of the world: GeoNames' populated places (the radius policy's density, the importer's
        // check of a point's plausibility) and Natural Earth's country outlines (land), both compiled in.
        .target(name: "Gazetteer", dependencies: ["Geo"], swiftSettings: strict),
        // The wire types of POST /v1/region-refresh, their validation and limits: Foundation (FoundationEssentials where
        // the toolchain has it) and Geo, nothing a phone lacks.
        .target(name: "OnCueContract", dependencies: ["Geo"], swiftSettings: strict),
        // What an app runs: Foundation (URLSession; FoundationNetworking on Linux), Geo and the contract.
        .target(name: "OnCueClient", dependencies: ["Geo", "OnCueContract"], swiftSettings: strict),
        // The store protocol and its model; no store implementation, so what links it links no database.
        .target(
            name: "LocationStore",
            dependencies: ["Geo", "OnCueContract"],
            swiftSettings: strict,
            // ICU as the Swift toolchain ships it for Foundation (`_FoundationICU`): Unicode TS #39's confusable
            // skeletons and script properties for network names (`NetworkText`).
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        // The embedded store: one SQLite file with SpatiaLite, through SQLite's C API.
        .target(name: "SQLiteStore", dependencies: ["Geo", "LocationStore", "CSQLite"], swiftSettings: strict),
        // The scale-out store on PostgreSQL + PostGIS: PostgresNIO, and NIOSSL for sslmode=require|verify-full. A module
        // of its own, so that the parsers, the engine and the fuzz targets never build PostgreSQL's TLS and crypto stack.
        .target(
            name: "PostGISStore",
            dependencies: [
                "Geo", "LocationStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "RegionRefresh", dependencies: ["Geo", "Gazetteer", "OnCueContract", "LocationStore", "CPrefetch"], swiftSettings: strict + fuzzed),
        .target(
            name: "ChainImport",
            dependencies: ["Geo", "Gazetteer", "OnCueContract", "LocationStore", "CLibCrypto"],
            swiftSettings: strict + fuzzed
        ),
        // The one module that names the store types: opens a store from its address.
        .target(
            name: "StoreOpening",
            dependencies: [
                "LocationStore", "SQLiteStore", "PostGISStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "TraceReplay", dependencies: ["Geo", "OnCueContract", "OnCueClient", "LocationStore", "RegionRefresh"], swiftSettings: strict + fuzzed),
        .target(
            name: "RefreshServer",
            dependencies: [
                "Geo", "OnCueContract", "LocationStore", "RegionRefresh", "ChainImport", "StoreOpening",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Served from Generated/EmbeddedFiles.swift (scripts/embed_resources.py), so the binary needs no bundle.
            exclude: ["openapi.yaml", "Console"],
            swiftSettings: strict
        ),
        // Text tables, JSON and counts as the command-line tools print them.
        .target(name: "CommandLineOutput", dependencies: ["ChainImport"], swiftSettings: strict),
        .executableTarget(
            name: "oncue",
            dependencies: [
                "Geo", "OnCueContract", "OnCueClient", "LocationStore", "RegionRefresh", "ChainImport", "TraceReplay", "RefreshServer",
                "CommandLineOutput", "StoreOpening",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // One locator of the shared datasets for every test target (and the trait that skips a test without them).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
        // Seeded locations, chain CSVs and drives of any size: the same bytes on every machine.
        .target(name: "SyntheticData", dependencies: ["Geo", "OnCueContract", "LocationStore", "ChainImport", "RegionRefresh", "TraceReplay"], path: "Tests/SyntheticData",
                swiftSettings: strict),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "TestSupport"], resources: [.copy("Fixtures")], swiftSettings: strict),
        // Fixtures/: reference vectors the tests read by path (OpeningHoursTests).
        .testTarget(
            name: "LocationStoreTests", dependencies: ["TestSupport", "SyntheticData", "Geo", "LocationStore", "SQLiteStore", "CSQLite"],
            exclude: ["Fixtures"], swiftSettings: strict),
        // Both stores against one suite: SQLite always, PostGIS at $ONCUE_POSTGRES_URL (scripts/postgres.sh).
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: [
                "TestSupport", "StoreOpening", "SQLiteStore", "PostGISStore", "SyntheticData", "Geo", "LocationStore", "ChainImport",
                "RegionRefresh", "OnCueContract",
                // GeometryColumnTests asks PostGIS directly about its schema and box predicates.
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RegionRefreshTests", dependencies: ["TestSupport", "SyntheticData", "Geo", "Gazetteer", "OnCueContract", "LocationStore", "SQLiteStore", "RegionRefresh"],
            swiftSettings: strict),
        .testTarget(
            name: "ChainImportTests",
            dependencies: ["TestSupport", "StoreOpening", "SQLiteStore", "SyntheticData",
                "Geo", "Gazetteer", "LocationStore", "ChainImport",
                // A loopback stand-in for a geocoding service (GeocoderTests).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Fixtures/: client state saved by earlier builds, which today's must still decode.
        .testTarget(
            name: "OnCueClientTests",
            dependencies: [
                "TestSupport", "Geo", "OnCueClient", "OnCueContract",
                // A loopback server answering from a script (RefreshClientTests).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict),
        // Fixtures/client-cards.tsv: the client's cards on shipped traces (ClientRegressionTests).
        .testTarget(
            name: "TraceReplayTests",
            dependencies: [
                "TestSupport", "Geo", "OnCueContract", "OnCueClient", "LocationStore", "ChainImport", "StoreOpening", "RegionRefresh", "TraceReplay",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "RefreshServerTests",
            dependencies: ["TestSupport", "StoreOpening", "PostGISStore",
                // The `oncue` executable's commands, parsed in process (ServerSettingsTests).
                "oncue", .product(name: "ArgumentParser", package: "swift-argument-parser"), "RefreshServer", "SQLiteStore", "RegionRefresh", "OnCueContract", "LocationStore", "ChainImport", "Geo",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The connection handler driven on an EmbeddedChannel, whose loop's time the test moves.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                // Access tokens signed by hand (HMAC, P-256) for ClientTokenTests, apart from the JWTKit that verifies them.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Golden/: the full --help of every command (HelpGoldenTests; scripts/update-help-golden.sh writes them).
        .testTarget(name: "OnCueCLITests", dependencies: ["TestSupport", "LocationStore", "SQLiteStore", "Geo", "CSQLite"], exclude: ["Golden"],
                    swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
