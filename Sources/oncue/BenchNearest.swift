import ArgumentParser
import Foundation
import Geo
import LocationStore
import RegionRefresh

struct BenchNearest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "The full region-refresh selection on the in-memory index, over the anchor kit's stores and queries.",
        discussion: """
            Reads `stores.csv` (id,lon,lat,network_id) and `queries.csv` (qid,lon,lat,pref_network) as written by
            shared/bench/anchors/gen_data.py. Each query asks for 20 regions within 50 km with its pref_network as
            the card network, radius policy on. Reports queries/s on one core, p50/p99, index build time and
            resident memory; the baseline in the same run is a brute-force scan of every location for the
            plain 20 nearest (the oracle the tests use), on a sample of the queries.

            Example:
              swift build -c release
              .build/release/oncue bench nearest --stores /tmp/geo-anchors/data/stores.csv \\
                  --queries /tmp/geo-anchors/data/queries.csv --limit-stores 1000000 --json
            """
    )
    @Option(help: "stores.csv from the anchor kit.") var stores: String
    @Option(help: "queries.csv from the anchor kit.") var queries: String
    @Option(help: "Use only the first N stores (the kit's 100k set is the first 100k rows).") var limitStores: Int?
    @Option(help: "Seconds to run the selection.") var seconds: Double = 10
    @Option(help: "Queries for the brute-force baseline.") var baselineQueries: Int = 200
    @Flag(help: "Print one JSON object.") var json = false

    struct Output: Encodable {
        var locations: Int
        var queries_per_second: Double
        var p50_us: Double
        var p99_us: Double
        var build_seconds: Double
        var resident_bytes: Int
        var resident_bytes_per_location: Double
        var brute_force_queries_per_second: Double
        var speedup_vs_brute_force: Double
    }

    func run() async throws {
        let rssBefore = residentBytes() ?? 0
        var locations: [Location] = []
        var networkIds = Set<String>()
        try forEachCSVRow(stores, limit: limitStores) { f in
            guard f.count >= 4, let lon = Double(f[1]), let lat = Double(f[2]) else { return }
            let c = try Coordinate(latitude: lat, longitude: lon)
            networkIds.insert(f[3])
            locations.append(Location(id: "s\(f[0])", networkId: f[3], externalId: f[0], name: "store \(f[0])", coordinate: c))
        }
        var requests: [RefreshParameters] = []
        try forEachCSVRow(queries, limit: nil) { f in
            guard f.count >= 4, let lon = Double(f[1]), let lat = Double(f[2]) else { return }
            requests.append(RefreshParameters(center: try Coordinate(latitude: lat, longitude: lon), cardNetworks: [f[3]]))
        }
        guard !locations.isEmpty, !requests.isEmpty else { throw ValidationError("no stores or no queries read") }
        let networks = networkIds.sorted().map { Network(id: $0, name: $0) }
        let clock = ContinuousClock()
        let t0 = clock.now
        let index = LocationIndex.build(locations: locations, networks: networks)
        let build = t0.duration(to: clock.now)
        let buildSeconds = Double(build.components.seconds) + Double(build.components.attoseconds) / 1e18
        let engine = RegionRefreshEngine(index: index)
        let now = Date()
        var sink = 0
        let sample = try measure("selection", inputs: requests, seconds: seconds) { sink &+= try engine.refresh($0, now: now).regions.count }
        // Resident memory of the index: the process after building, less what the input arrays still hold is not
        // separable here, so report the process RSS minus the RSS before loading the CSVs (an upper bound).
        let rss = (residentBytes() ?? 0) - rssBefore
        let coords = locations.map { $0.coordinate }
        let brute = measure("brute force", inputs: Array(requests.prefix(baselineQueries)), seconds: min(seconds, 10)) { r in
            var best: [(Double, Int)] = []
            for (i, c) in coords.enumerated() {
                let d = Sphere.haversineTerm(r.center, c)
                if best.count < 20 || d < best[best.count - 1].0 {
                    best.append((d, i))
                    best.sort { $0.0 < $1.0 }
                    if best.count > 20 { best.removeLast() }
                }
            }
            sink &+= best.count
        }
        if sink == -1 { print("") }
        let output = Output(locations: locations.count, queries_per_second: sample.queries_per_second, p50_us: sample.p50_us,
                            p99_us: sample.p99_us, build_seconds: buildSeconds, resident_bytes: rss,
                            resident_bytes_per_location: Double(rss) / Double(locations.count),
                            brute_force_queries_per_second: brute.queries_per_second,
                            speedup_vs_brute_force: sample.queries_per_second / max(brute.queries_per_second, 1e-9))
        if json { print(try jsonString(output, pretty: false)); return }
        print(String(format: "%d locations: %.0f selections/s (p50 %.1f µs, p99 %.1f µs), build %.2f s, RSS +%.0f MB (%.0f B/location); brute force %.1f q/s → %.0f×",
                     locations.count, sample.queries_per_second, sample.p50_us, sample.p99_us, buildSeconds, Double(rss) / 1e6,
                     output.resident_bytes_per_location, brute.queries_per_second, output.speedup_vs_brute_force))
    }

    /// Calls `body` with the comma-separated fields of every data row (the header is skipped).
    func forEachCSVRow(_ path: String, limit: Int?, _ body: ([String]) throws -> Void) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw ValidationError("cannot read \(path)") }
        var n = 0
        for (i, line) in text.split(whereSeparator: \.isNewline).enumerated() where i > 0 {
            if let limit, n >= limit { break }
            try body(line.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
            n += 1
        }
    }
}
