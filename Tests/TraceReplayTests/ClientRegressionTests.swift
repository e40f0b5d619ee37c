import ChainImport
import Foundation
import LocationStore
import OnCueClient
import RegionRefresh
import StoreOpening
import Testing

@testable import TraceReplay

/// The client's own regression suite: shipped traces — six synthetic Helsinki walkers and three GeoLife traces of
/// `datasets/` — replayed through the client under the study's recommendation (two tiers) and the same with one
/// tier, on the iOS and Android profiles, one seed. Every card's life (when it came, at which tier, for which network,
/// on what evidence, when it was upgraded and how it went) is held in `Fixtures/client-cards.tsv`, so a change to the
/// client that moves a card shows as a diff in review. After a deliberate change, regenerate the file and review it:
///
///     ONCUE_UPDATE_CLIENT_CARDS=1 swift test --filter ClientRegressionTests
@Suite("The client's cards on shipped traces", .serialized)
struct ClientRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/TraceReplayTests/Fixtures/client-cards.tsv")

    static func file(_ path: String) -> String { root.appendingPathComponent(path).path }

    /// One place's traces, stores and wallet, as `simulations/run.sh` replays them.
    struct Place: Sendable {
        var name: String
        var scenarioPrefix: String
        var traces: [String]
        var wallet: String
        var importStores: @Sendable (any LocationStore) async throws -> Void
    }

    static let places = [
        Place(
            name: "helsinki", scenarioPrefix: "helsinki", traces: (1...6).map { String(format: "simulations/traces/helsinki/walk-%02d.gpx", $0) },
            wallet: "simulations/wallets/helsinki.json"
        ) { store in
            var options = ImportOptions()
            options.mapping = try MappingFile.load(path: file("simulations/stores/helsinki-chains.json"))
            _ = try await ChainImporter(for: store, options: options).run([try ImportInput.file(file("simulations/stores/helsinki-osm.geojsonseq"))])
        },
        Place(
            name: "beijing", scenarioPrefix: "beijing",
            traces: [
                "datasets/trace-geolife-beijing/geolife_modes/010/Trajectory/20080330004134.plt",
                "datasets/trace-geolife-beijing/geolife_modes/010/Trajectory/20080402060926.plt",
                "datasets/trace-geolife-beijing/geolife_modes/010/Trajectory/20080331160008.plt",
            ], wallet: "simulations/wallets/beijing.json"
        ) { store in
            var options = ImportOptions()
            options.networkColumn = "brand"
            _ = try await ChainImporter(for: store, options: options).run([try ImportInput.file(file("simulations/stores/beijing-synthetic.csv"))])
        },
    ]

    /// Every card of every replay, one line each, in a fixed order.
    static func record() async throws -> String {
        let recommendation = try Recommendation.load(json: Data(contentsOf: URL(fileURLWithPath: file("simulations/recommended.json"))))
        var lines = ["place\tplatform\tconfiguration\ttrace\tposted_s\ttier\tnetwork\ttrigger\tupgraded_s\tended_s\tend"]
        for place in places {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-cards-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try await StoreAddress.file(directory.appendingPathComponent("stores.sqlite").path).create()
            try await place.importStores(store)
            let walletFile = try Wallet.load(json: Data(contentsOf: URL(fileURLWithPath: file(place.wallet))))
            let wallet = try await WalletResolution.resolve(walletFile, in: store).wallet
            let engine = RegionRefreshEngine()
            try await engine.reload(from: store)
            for platform in ["ios", "android"] {
                let base = try Scenario.load(
                    json: Data(contentsOf: URL(fileURLWithPath: file("simulations/scenarios/\(place.scenarioPrefix)-\(platform).json"))))
                let (recommended, strategy) = try recommendation.apply(to: base)
                var oneTier = recommended
                oneTier.app.cardTiers = .one
                let catalog = try await StoreCatalog.load(
                    from: store, networks: Set(wallet.networkIds), storeRadiusMeters: recommended.groundTruth.storeRadiusMeters)
                for (configuration, scenario) in [("recommended", recommended), ("one-tier", oneTier)] {
                    let context = ReplayContext(scenario: scenario, wallet: wallet, catalog: catalog, refresher: engine, keepEvents: false)
                    for path in place.traces {
                        let trace = try TraceLoader.load(path: file(path), cleaning: scenario.trace)
                        let run = await ReplayRunner.run(trace, strategies: [try Strategy.parse(strategy)], context: context)
                        let start = trace.segments.first?.first?.time ?? 0
                        func seconds(_ t: Double?) -> String { t.map { $0.isFinite ? String(Int(($0 - start).rounded())) : "-" } ?? "-" }
                        for life in run.runs[0].cardLives {
                            lines.append(
                                [
                                    place.name, platform, configuration, (path as NSString).lastPathComponent, seconds(life.posted),
                                    life.tier.rawValue,
                                    life.networkId, life.trigger.rawValue, seconds(life.upgraded), seconds(life.ended), life.end.rawValue,
                                ].joined(separator: "\t"))
                        }
                    }
                }
            }
            await store.close()
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theCardsAreThoseOfTheCommittedFile() async throws {
        let now = try await Self.record()
        if ProcessInfo.processInfo.environment["ONCUE_UPDATE_CLIENT_CARDS"] != nil {
            try now.write(to: Self.fixture, atomically: true, encoding: .utf8)
            return
        }
        let committed = (try? String(contentsOf: Self.fixture, encoding: .utf8)) ?? ""
        guard now != committed else { return }
        let old = committed.split(separator: "\n").map(String.init)
        let new = now.split(separator: "\n").map(String.init)
        let removed = old.filter { !Set(new).contains($0) }.prefix(20)
        let added = new.filter { !Set(old).contains($0) }.prefix(20)
        Issue.record(
            """
            the client's cards moved (\(old.count) lines committed, \(new.count) now); if that is meant, regenerate \
            Tests/TraceReplayTests/Fixtures/client-cards.tsv with ONCUE_UPDATE_CLIENT_CARDS=1 and review the diff.
            gone:
            \(removed.joined(separator: "\n"))
            new:
            \(added.joined(separator: "\n"))
            """)
    }
}
