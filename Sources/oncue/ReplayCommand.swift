import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore
import OnCueClient
import OnCueContract
import RegionRefresh
import TraceReplay

/// `oncue replay`: real GPS traces through a virtual phone with the OS's limits; which card moments surfaced the card.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay GPS traces through a virtual phone and measure which card moments surfaced the right card.",
        discussion: """
            TRACE is a GPX, GeoLife PLT, CSV or GeoJSON file, a folder (searched recursively) or a glob. \
            Traces are replayed in parallel on a virtual clock; the same seed gives byte-identical outputs, and a \
            trace's randomness comes from its content, so one trace alone reproduces its row of a batch.

            Strategies: document (the product document's pseudo-code, literally), fixed (max(largest radius, 500 m) \
            or 6 h), guaranteed (the server's refresh_after_meters), bubble (guaranteed + refresh region), staged \
            (wide regions wake the app, which watches the store's own small region until arrival); +clamp asks the \
            server for no region below the OS's reliable minimum radius (min_radius_meters); +gps follows the store \
            with the app's own GPS and shows the card once its fixes show a stay; +motion keeps that GPS off while \
            the phone's motion sensor says the person walks; @N sets max_regions (e.g. guaranteed+clamp@10). \
            Every strategy is measured beside oracle-os (the scenario's OS, every card location, no region limit) \
            and oracle (ideal OS).

            The headline is served recall: moments whose card came in time to use it, from 5 min before arrival to \
            the till (arrival + min(10 min, half the stay); ground_truth.pay_after_seconds, per category \
            ground_truth.pay_after_by_category), and precision counted the same way; "before leaving" counts a card \
            any time until the person left. References: oracle (each card at arrival, from the true path), ideal-os \
            (exact positions under the scenario's OS) and oracle-os (the phone's fixes); none waits to confirm.

            --seeds K replays every strategy with K seeds (the scenario's and the K-1 after it) and reports served \
            recall and precision pooled, with 95 % intervals over people (GeoLife's user folders, else each file). \
            --sweep NAME=v1,v2,... (repeatable) crosses settings: strategy, max_regions, radius_scale (the engine's \
            radius policy scaled), cooldown (seconds), or any scenario key such as os.fence_check_moving_seconds or \
            app.staged_slots. --set KEY=VALUE (repeatable) sets one scenario key without a sweep; --recommended FILE \
            runs the strategy and settings a recommendation file holds for the scenario's profile.

            Examples:
              oncue replay simulations/traces/helsinki --db helsinki.sqlite \\
                --wallet simulations/wallets/helsinki.json \\
                --scenario simulations/scenarios/helsinki-ios.json --compare --out /tmp/replay
              oncue replay datasets/trace-geolife-beijing --db beijing.sqlite \\
                --wallet simulations/wallets/beijing.json --scenario simulations/scenarios/beijing-ios.json \\
                --seeds 5 --sweep radius_scale=0.5,1,2 --sweep cooldown=1800,3600
              oncue replay simulations/traces/helsinki --db helsinki.sqlite \\
                --wallet simulations/wallets/helsinki.json --profile android \\
                --recommended simulations/recommended.json --seeds 5
            """
    )

    @Argument(help: "Trace files, folders or globs.") var traces: [String]
    @OptionGroup var store: StoreOptions
    @Option(help: "Wallet JSON: {\"cards\": [{\"network_id\": ..., \"name\": ...}]}.") var wallet: String
    @Option(help: "Scenario JSON (every parameter; overrides the profile's defaults).") var scenario: String?
    @Option(help: "The phone (default: the scenario's, else ios).") var profile: PhoneProfile?
    @Option(
        name: .customLong("strategy"),
        help: "A strategy (repeatable). Default: guaranteed, or the scenario's list with --compare, --seeds or --sweep.")
    var strategies: [String] = []
    @Flag(help: "Compare the scenario's strategies (or the --strategy list) in one table.") var compare = false
    @Option(name: .customLong("sweep"), help: "NAME=v1,v2,... (repeatable): replay every combination.") var sweeps: [String] = []
    @Option(name: .customLong("set"), help: "KEY=VALUE (repeatable): set one scenario key, e.g. app.min_refresh_interval_seconds=1800.")
    var settings: [String] = []
    @Option(help: "A recommendation file: run its strategy and settings for the scenario's profile.") var recommended: String?
    @Option(help: "Seeds per configuration (means and 95 % intervals when more than 1).") var seeds: Int = 1
    @Option(help: "Ask a running `oncue serve` at this base URL instead of the in-process engine.") var server: String?
    @Option(
        help: ArgumentHelp(
            "With --server run with --client-jwt: a file holding the app's access token, read again before every call (so a token renewed into it is used).",
            valueName: "file"))
    var tokenFile: String?
    @Flag(help: "With --server: exit 0 even when the server refused or failed refresh calls (429, 5xx, no answer).")
    var allowServerErrors = false
    @Option(help: "Write summary.json, sweep.json, index.html, per-trace events CSV and HTML report here.") var out: String?
    @Option(help: "Random seed (default: the scenario's).") var seed: UInt64?
    @Option(help: "Replays run at once (default: all cores).") var jobs: Int?
    @Flag(help: "Replay traces whose points lack times, timing them at trace.synthesised_speed_meters_per_second (warned).")
    var inventTimes = false
    @Flag(help: "Refuse a trace file cut off before its end, instead of replaying the points before the cut (warned).")
    var refuseTruncated = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(1...1_000).contains(seeds) { throw ValidationError("--seeds must be 1...1000") }
        if let server, URL(string: server)?.scheme == nil { throw ValidationError("--server must be a URL such as http://127.0.0.1:8080") }
        if let tokenFile {
            guard server != nil else { throw ValidationError("--token-file is for --server (the in-process engine asks for no token)") }
            guard Self.readToken(tokenFile) != nil else { throw ValidationError("--token-file \(tokenFile) cannot be read or is empty") }
        }
        for s in strategies {
            let parsed: Strategy
            do { parsed = try Strategy.parse(s) } catch { throw ValidationError(String(describing: error)) }
            if parsed.isOracle { throw ValidationError("--strategy \(s): oracle and oracle-os are always replayed beside the strategies") }
        }
        do { _ = try SweepGrid.parse(sweeps) } catch { throw ValidationError(String(describing: error)) }
        let parsedSettings: [(key: String, value: String)]
        do { parsedSettings = try settings.map(Recommendation.parseSetting) } catch { throw ValidationError(String(describing: error)) }
        if let unknown = parsedSettings.first(where: { !Scenario.isKnownKey($0.key) }) {
            throw ValidationError(
                "--set \(unknown.key)=…: no scenario setting is named '\(unknown.key)' (keys as in a scenario file, e.g. app.confirm_seconds)")
        }
        if recommended != nil && !strategies.isEmpty {
            throw ValidationError("--recommended names its strategy; leave out --strategy (or drop --recommended)")
        }
        if server != nil && sweeps.contains(where: { $0.hasPrefix("radius_scale=") }) {
            throw ValidationError("--sweep radius_scale needs the in-process engine (it rebuilds the index), not --server")
        }
    }

    @Sendable static func showProgress(_ done: Int, _ total: Int) {
        FileHandle.standardError.write(Data("\rreplayed \(done)/\(total)".utf8))
    }

    /// The scenario, and the settings `--recommended` and `--set` applied to it (in that order), which every output
    /// records.
    func loadScenario() throws -> (scenario: Scenario, applied: [(key: String, value: String)]) {
        var sc: Scenario
        var applied: [(key: String, value: String)] = []
        if let scenario {
            let data = try Data(contentsOf: URL(fileURLWithPath: scenario))
            sc = try Scenario.load(json: data, defaultProfile: profile?.rawValue ?? "ios")
            if let profile = profile?.rawValue, profile != sc.profile {
                // --profile on the command line wins: re-apply the file over the requested profile.
                var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
                object["profile"] = profile
                sc = try Scenario.profile(profile).applying(object)
            }
        } else {
            sc = try Scenario.profile(profile?.rawValue ?? "ios")
        }
        if let seed { sc.seed = seed }
        if let recommended {
            let file = try Recommendation.load(json: Data(contentsOf: URL(fileURLWithPath: recommended)))
            let (recommended, strategy) = try file.apply(to: sc)
            sc = recommended
            sc.strategies = [strategy]
            applied += try file.settings(for: sc.profile)
        }
        let set = try settings.map(Recommendation.parseSetting)
        applied += set
        return (try Recommendation.set(set, on: sc), applied)
    }

    func run() async throws {
        let (sc, applied) = try loadScenario()
        let appliedSettings = applied.isEmpty ? nil : Dictionary(applied, uniquingKeysWith: { _, last in last })
        let grid = try SweepGrid.parse(sweeps)
        let studying = seeds > 1 || !grid.isEmpty
        let specs = strategies.isEmpty ? (compare || studying || recommended != nil ? sc.strategies : ["guaranteed"]) : strategies
        let variants = try grid.variants(base: sc, strategies: specs)
        let walletFile = try Wallet.load(json: Data(contentsOf: URL(fileURLWithPath: wallet)))
        let paths = try TraceLoader.expand(traces)
        guard !paths.isEmpty else { throw CommandFailure("no trace files found in \(traces.joined(separator: " "))") }

        let (catalog, refreshers, walletValue) = try await loadStores(
            scenario: sc, wallet: walletFile, radiusScales: Set(variants.map(\.radiusScale)))
        let parallelism = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let stderr = FileHandleOutput.standardError
        let tty = stderr.isTerminal
        let started = Date()
        let admission = TraceAdmission(inventTimes: inventTimes, refuseCutOff: refuseTruncated)
        let loaded = await BatchReplay.load(
            paths: paths, names: BatchReplay.displayNames(paths), scenario: sc, admission: admission, parallelism: parallelism)
        Self.report(loaded, of: paths.count, to: stderr)
        guard !loaded.traces.isEmpty else { throw ExitCode(1) }
        let reach = catalog.reach(of: loaded.traces.map(\.trace))
        if reach.near == 0 {
            let nearest =
                reach.nearestMeters.map { String(format: " (the nearest is %@ km from a trace)", formatCount(Int(($0 / 1000).rounded()))) } ?? ""
            stderr.write(
                "warning: no trace passes within \(formatCount(Int(StoreCatalog.reachMeters))) m of any of the \(formatCount(catalog.stores.count)) card "
                    + "locations\(nearest): there is no card moment to measure. Are --db and the wallet's networks those of the "
                    + "place where the traces were recorded?\n")
        }
        let hours = loaded.traces.reduce(0) { $0 + $1.trace.activeSeconds } / 3600
        let heading =
            "\(loaded.traces.count) traces, \(formatCount(loaded.traces.reduce(0) { $0 + $1.trace.fixCount })) fixes, "
            + "\(String(format: "%.1f", hours)) h; profile \(sc.profile); \(catalog.stores.count) card locations (\(walletValue.networkIds.joined(separator: ", ")))"

        var sweep: SweepResult?
        if studying {
            let seedList = (0..<UInt64(seeds)).map { sc.seed &+ $0 }
            sweep = try await SweepRunner.run(
                loaded.traces, grid: grid, variants: variants, seeds: seedList, wallet: walletValue, catalog: catalog,
                refreshers: refreshers, parallelism: parallelism, progress: tty ? Self.showProgress : nil)
            sweep?.applied = appliedSettings
            if tty { stderr.write("\n") }
        }
        // The detailed run (events, maps): the first variant with the scenario's seed.
        var summary: ReplaySummary?
        var detailed: [TraceRun] = []
        if !studying || out != nil {
            let first = variants[0]
            let context = ReplayContext(
                scenario: first.scenario, wallet: walletValue, catalog: catalog, refresher: refreshers[first.radiusScale]!,
                keepEvents: out != nil)
            detailed = await BatchReplay.run(
                loaded.traces, strategies: try first.strategies.map(Strategy.parse), context: context,
                parallelism: parallelism, progress: tty && !studying ? Self.showProgress : nil)
            if tty && !studying { stderr.write("\n") }
            summary = ReplaySummary(scenario: first.scenario, wallet: walletValue, runs: detailed)
            summary?.applied = appliedSettings
        }
        if let out, let summary {
            let files = try BatchReplay.writeOutputs(detailed, summary: summary, scenario: variants[0].scenario, sweep: sweep, to: out)
            if tty { stderr.write("wrote \(files.count) files to \(out)\n") }
        }
        let settingsLine = applied.isEmpty ? "" : "\nsettings applied: " + applied.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        try printResults(heading: heading + settingsLine, sweep: sweep, summary: summary, seed: sc.seed)
        if tty { stderr.write(String(format: "%.2f s wall\n", Date().timeIntervalSince(started))) }
        try checkServerAnswered(refreshers.values)
    }

    /// The files that could not be replayed and what was made up or left out of those that were, on the terminal (the
    /// first `shown` of each; the rest are in summary.json); `error:` when no file is left to replay.
    static func report(
        _ loaded: (traces: [LoadedTrace], failures: [BatchReplay.Failure]), of files: Int, to stderr: FileHandleOutput,
        shown: Int = 20
    ) {
        let warnings = loaded.traces.flatMap { t in t.warnings.map { (t.trace.name, $0) } }
        for (name, warning) in warnings.prefix(shown) {
            stderr.write("warning: \(name.forMessage(limit: 300)): \(warning.forMessage(limit: 500))\n")
        }
        if warnings.count > shown { stderr.write("warning: and \(warnings.count - shown) more such warnings\n") }
        let prefix = loaded.traces.isEmpty ? "error" : "warning"
        for f in loaded.failures.prefix(shown) {
            stderr.write("\(prefix): \(f.path.forMessage(limit: 300)): \(f.error.forMessage(limit: 500))\n")
        }
        if loaded.failures.count > shown { stderr.write("\(prefix): and \(loaded.failures.count - shown) more files could not be replayed\n") }
        if loaded.traces.isEmpty {
            stderr.write("error: none of the \(formatCount(files)) trace files could be replayed\n")
        } else if !loaded.failures.isEmpty {
            stderr.write("warning: \(formatCount(loaded.failures.count)) of \(formatCount(files)) trace files were left out of the replay\n")
        }
    }

    /// A replay against a server measures the strategies only if the server answered: refusals the scenario did not
    /// inject (a default `oncue serve` limits each client to 50 requests/s) end the run with exit 1 and the remedy.
    /// The token in a file: its first line, trimmed; nil when the file cannot be read or the line is empty.
    static func readToken(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let token = line.trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    private func checkServerAnswered(_ refreshers: some Sequence<any RegionRefreshing>) throws {
        let clients = refreshers.compactMap { $0 as? HTTPRefreshClient }
        let failed = clients.reduce(0) { $0 + $1.failures.count }
        guard failed > 0 else { return }
        let first = clients.lazy.compactMap(\.failures.first).first ?? ""
        var message = "\(failed) refresh calls to the server failed (first: \(first.forMessage(limit: 300)))"
        if first.contains("HTTP 401") || first.contains("HTTP 403") {
            message += "; the server asks for the app's access token: pass it with --token-file"
        }
        if first.contains("HTTP 429") {
            message += "; the server's rate limit refused them: start it with --rate-limit-rps 0 (or ONCUE_RATE_LIMIT_RPS=0) for replays"
        }
        message += ". The figures above count them as refresh failures"
        if allowServerErrors {
            FileHandleOutput.standardError.write("warning: \(message).\n")
            return
        }
        FileHandleOutput.standardError.write("error: \(message); pass --allow-server-errors to accept them.\n")
        throw ExitCode(1)
    }

    /// The card locations of the wallet's networks, a refresher per radius scale (the server given by --server, else
    /// an engine of its own built from the store), and the wallet with its cards under the store's network ids.
    private func loadStores(
        scenario sc: Scenario, wallet walletFile: Wallet, radiusScales: Set<Double>
    ) async throws
        -> (StoreCatalog, [Double: any RegionRefreshing], Wallet)
    {
        try await store.withStore(readOnly: true) { store -> (StoreCatalog, [Double: any RegionRefreshing], Wallet) in
            let resolution = try await WalletResolution.resolve(walletFile, in: store)
            let stderr = FileHandleOutput.standardError
            for (given, id) in resolution.renamed { stderr.write("wallet: card '\(given.forMessage())' is network '\(id.forMessage())'\n") }
            for given in resolution.unknown {
                stderr.write("wallet: card '\(given.forMessage())' names no network of the store; it can match no moment\n")
            }
            guard resolution.unknown.count < walletFile.cards.count else {
                throw CommandFailure("no card of the wallet names a network of the store (\(resolution.unknown.joined(separator: ", ")))")
            }
            let walletValue = resolution.wallet
            let catalog = try await StoreCatalog.load(
                from: store, networks: Set(walletValue.networkIds),
                storeRadiusMeters: sc.groundTruth.storeRadiusMeters)
            var refreshers: [Double: any RegionRefreshing] = [:]
            for scale in radiusScales {
                if let server, let url = URL(string: server) {
                    let tokenFile = tokenFile
                    let token: (@Sendable () async throws -> String?)? = tokenFile.map { path in { @Sendable in Self.readToken(path) } }
                    refreshers[scale] = HTTPRefreshClient(baseURL: url, accessToken: token)
                } else {
                    let engine = RegionRefreshEngine(configuration: EngineConfiguration(radiusPolicy: RadiusPolicy.standard.scaled(by: scale)))
                    try await engine.reload(from: store)
                    refreshers[scale] = engine
                }
            }
            return (catalog, refreshers, walletValue)
        }
    }

    /// The sweep's table, or the comparison of strategies (JSON with --format json).
    private func printResults(heading: String, sweep: SweepResult?, summary: ReplaySummary?, seed: UInt64) throws {
        if output.isJSON {
            print(try sweep?.json() ?? summary?.json() ?? "", terminator: "")
            return
        }
        let stderr = FileHandleOutput.standardError
        print(heading)
        if let sweep {
            print(
                "seeds \(sweep.seeds.map(String.init).joined(separator: ", ")); \(sweep.traces) traces of \(sweep.people) people; served "
                    + "recall and precision pooled [95 % interval over people], the rest means over seeds; * fewer than "
                    + "\(SweepResult.fewMoments) card moments")
            let table = sweep.table()
            print(textTable(table.header, table.rows), terminator: "")
            stderr.write(
                String(
                    format: "sweep: %d configurations × %d seeds × %d traces in %.2f s wall\n",
                    sweep.points.count, sweep.seeds.count, sweep.traces, sweep.wallSeconds))
        } else if let summary {
            print("seed \(seed)")
            let table = summary.comparisonTable()
            print(textTable(table.header, table.rows), terminator: "")
            print(ReplaySummary.columnNotes)
        }
    }
}
