import ArgumentParser
import Foundation
import LocationStore
import RegionRefresh
import TraceReplay

/// `oncue replay`: real GPS traces through a virtual phone with the OS's limits; which store visits surfaced a card.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay GPS traces through a virtual phone and measure which store visits surfaced the right card.",
        discussion: """
            TRACE is a GPX, GeoLife PLT, CSV or GeoJSON file, a folder (searched recursively) or a glob.
            Traces are replayed in parallel on a virtual clock; the same seed gives byte-identical outputs.
            Strategies: document (the product document's pseudo-code, literally), fixed (max(largest radius, 500 m)
            or 6 h), guaranteed (the server's refresh_after_meters), bubble (guaranteed + refresh region),
            each optionally @N for max_regions. Every strategy is measured beside the ideal oracle.

            Example:
              oncue replay datasets/traces --db stores.sqlite --wallet simulations/wallets/beijing.json \\
                --profile ios --compare --out /tmp/replay
            """
    )

    @Argument(help: "Trace files, folders or globs.") var traces: [String]
    @Option(help: storeHelp) var db: String?
    @Option(help: "Wallet JSON: {\"cards\": [{\"network_id\": …, \"name\": …}]}.") var wallet: String
    @Option(help: "Scenario JSON (every parameter; overrides the profile's defaults).") var scenario: String?
    @Option(help: "ios, android or ideal (default: the scenario's, else ios).") var profile: String?
    @Option(name: .customLong("strategy"), help: "A strategy (repeatable). Default: guaranteed, or the scenario's list with --compare.")
    var strategies: [String] = []
    @Flag(help: "Compare the scenario's strategies (or the --strategy list) in one table.") var compare = false
    @Option(help: "Ask a running `oncue serve` at this base URL instead of the in-process engine.") var server: String?
    @Option(help: "Write summary.json, per-trace events CSV and HTML report here.") var out: String?
    @Option(help: "Random seed (default: the scenario's).") var seed: UInt64?
    @Option(help: "Traces replayed at once (default: all cores).") var jobs: Int?
    @Flag(help: "Print the JSON summary instead of the table.") var json = false

    func validate() throws {
        if let profile, !Scenario.profiles.contains(profile) { throw ValidationError("--profile must be ios, android or ideal") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let server, URL(string: server)?.scheme == nil { throw ValidationError("--server must be a URL such as http://127.0.0.1:8080") }
        for s in strategies { do { _ = try Strategy.parse(s) } catch { throw ValidationError(String(describing: error)) } }
    }

    @Sendable static func showProgress(_ done: Int, _ total: Int) {
        FileHandle.standardError.write(Data("\rreplayed \(done)/\(total) traces".utf8))
    }

    func run() async throws {
        var sc: Scenario
        if let scenario {
            sc = try Scenario.load(json: Data(contentsOf: URL(fileURLWithPath: scenario)), defaultProfile: profile ?? "ios")
            if let profile, profile != sc.profile {
                // --profile on the command line wins: re-apply the file over the requested profile.
                let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scenario))) as? [String: Any] ?? [:]
                var o = object; o["profile"] = profile
                sc = try Scenario.profile(profile).applying(o)
            }
        } else {
            sc = try Scenario.profile(profile ?? "ios")
        }
        if let seed { sc.seed = seed }
        let specs = compare ? (strategies.isEmpty ? sc.strategies : strategies) : (strategies.isEmpty ? ["guaranteed"] : strategies)
        let strategyList = try specs.map(Strategy.parse)
        let walletValue = try Wallet.load(json: Data(contentsOf: URL(fileURLWithPath: wallet)))
        let paths = try TraceLoader.expand(traces)
        guard !paths.isEmpty else { throw ValidationError("no trace files found in \(traces.joined(separator: " "))") }

        let (catalog, refresher) = try await withStore(db, readOnly: true) { store -> (StoreCatalog, any RegionRefreshing) in
            let catalog = try await StoreCatalog.load(from: store, networks: Set(walletValue.networkIds),
                                                      storeRadiusMeters: sc.groundTruth.storeRadiusMeters)
            if let server, let url = URL(string: server) { return (catalog, HTTPRefreshClient(baseURL: url)) }
            let engine = RegionRefreshEngine()
            try await engine.reload(from: store)
            return (catalog, engine)
        }
        let context = ReplayContext(scenario: sc, wallet: walletValue, catalog: catalog, refresher: refresher, keepEvents: out != nil)
        let stderr = FileHandleOutput.standardError
        let tty = stderr.isTerminal
        let started = Date()
        var progress: (@Sendable (Int, Int) -> Void)?
        if tty { progress = Self.showProgress }
        let result = await BatchReplay.run(paths: paths, names: BatchReplay.displayNames(paths), strategies: strategyList, context: context,
                                           parallelism: jobs ?? ProcessInfo.processInfo.activeProcessorCount, progress: progress)
        if tty { stderr.write("\n") }
        for f in result.failures { stderr.write("warning: \(f.path): \(f.error)\n") }
        guard !result.runs.isEmpty else { throw ExitCode(1) }
        let summary = ReplaySummary(scenario: sc, wallet: walletValue, runs: result.runs)
        if let out {
            let files = try BatchReplay.writeOutputs(result.runs, summary: summary, scenario: sc, to: out)
            if tty { stderr.write("wrote \(files.count) files to \(out)\n") }
        }
        if json {
            print(try summary.json(), terminator: "")
            return
        }
        let fixes = result.runs.reduce(0) { $0 + $1.trace.fixCount }
        let hours = result.runs.reduce(0) { $0 + $1.trace.activeSeconds } / 3600
        print("\(result.runs.count) traces, \(formatCount(fixes)) fixes, \(String(format: "%.1f", hours)) h; profile \(sc.profile), seed \(sc.seed); "
              + "\(catalog.stores.count) card locations (\(walletValue.networkIds.joined(separator: ", ")))")
        let table = summary.comparisonTable()
        print(textTable(table.header, table.rows), terminator: "")
        if tty { stderr.write(String(format: "%.2f s wall\n", Date().timeIntervalSince(started))) }
    }
}
