// swift-tools-version:6.1
import PackageDescription

// A phone app's view of OnCue: it depends on this repository as an app would and links only the client side. CI
// builds it and checks that nothing of the server (NIO, PostgresNIO, Hummingbird, SQLite, ICU) was compiled for it
// (scripts/check-client-build.sh); docs/client.md says what an app fetches.
let package = Package(
    name: "ClientApp",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [
        // An app names the repository's URL; here the checkout it sits in.
        .package(name: "oncue", path: "../..")
    ],
    targets: [
        // The wire contract alone: FoundationEssentials, no ICU.
        .executableTarget(
            name: "ContractOnly",
            dependencies: [.product(name: "OnCueContract", package: "oncue")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        // The client library: URLSession (FoundationNetworking on Linux) besides.
        .executableTarget(
            name: "ClientApp",
            dependencies: [.product(name: "OnCueClient", package: "oncue"), .product(name: "OnCueContract", package: "oncue")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
