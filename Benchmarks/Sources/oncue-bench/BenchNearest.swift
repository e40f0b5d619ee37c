import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore
import OnCueContract
import RegionRefresh

struct BenchNearest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "The full region-refresh selection on the in-memory index, over the anchor kit's stores and queries.",
        discussion: """
            Reads `stores.csv` (id,lon,lat,network_id) and `queries.csv` (qid,lon,lat,pref_network) as written by
            shared/bench/anchors/gen_data.py. Each query asks for 20 regions within 50 km with its pref_network as
            the card network, radius policy on. The selection timed is `RegionRefreshEngine.select`, what the server
            calls: every region chosen, merged, split and placed, and the refresh distance, before any string is
            copied out of the index. Reports queries/s on one core, p50/p99, index build time and
            resident memory; the baseline in the same run is a brute-force scan of every location for the
            plain 20 nearest (the oracle the tests use), on a sample of the queries. Also reports the time to
            write a response's wire JSON from a selection (what the server sends), beside JSONEncoder on the same
            responses built as `RegionRefreshResponse` values.

            Example:
              swift build -c release --package-path Benchmarks
              Benchmarks/.build/release/oncue-bench nearest --stores /tmp/geo-anchors/data/stores.csv \\
                  --queries /tmp/geo-anchors/data/queries.csv --limit-stores 1000000 --json
            """
    )
    @Option(help: "stores.csv from the anchor kit.") var stores: String
    @Option(help: "queries.csv from the anchor kit.") var queries: String
    @Option(help: "Use only the first N stores (the kit's 100k set is the first 100k rows).") var limitStores: Int?
    @Option(help: "Seconds to run the selection.") var seconds: Double = 10
    @Option(help: "Queries for the brute-force baseline.") var baselineQueries: Int = 200
    @Option(
        help: ArgumentHelp(
            "Answer each query this many times in a row.",
            discussion: "With more than 1, everything a selection reads is in cache: the difference to 1 is time spent waiting on memory."))
    var repeatEach: Int = 1
    @Option(help: "Give this share of the stores (0…1) opening hours, from five typical chain schedules.")
    var openingHoursShare: Double = 0
    @Option(help: "Every query carries a local time on a Wednesday at HH:MM (time-of-day boosts and opening hours).")
    var localTime: String?
    @Option(
        help: ArgumentHelp(
            "Then move this share of the stores (0…1) 300 m and apply that as changes to the index; time the selection again.",
            discussion: "What a server serves between an import and the next full build: the changes laid over the build."))
    var changedShare: Double = 0
    @Flag(help: "Print one JSON object.") var json = false

    /// Typical chain schedules; at night only the last is open.
    static let openingHoursPool = [
        "Mo-Fr 08:00-21:00; Sa 09:00-18:00; Su 10:00-18:00", "Mo-Su 07:00-23:00", "Mo-Sa 10:00-20:00; Su 12:00-18:00",
        "Mo-Fr 06:00-22:00; Sa,Su 08:00-22:00", "24/7",
    ]

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
        /// Writing a response's wire JSON (what the server sends), and JSONEncoder on the same responses.
        var wire_json_us: Double
        var json_encoder_us: Double
        /// With `--changed-share`: the time to apply the changes, and the selection on the index with them.
        var changes: Int?
        var apply_seconds: Double?
        var changed_queries_per_second: Double?
        var changed_p50_us: Double?
        var changed_p99_us: Double?
    }

    func validate() throws {
        guard repeatEach >= 1 else { throw ValidationError("--repeat-each must be at least 1, got \(repeatEach)") }
        guard seconds > 0 else { throw ValidationError("--seconds must be above 0, got \(seconds)") }
        guard (0...1).contains(openingHoursShare) else { throw ValidationError("--opening-hours-share must be in 0…1") }
        guard (0...1).contains(changedShare) else { throw ValidationError("--changed-share must be in 0…1") }
        _ = try clock()
    }

    /// The queries' wall clock: Wednesday at `--local-time`.
    func clock() throws -> LocalWallClock? {
        guard let localTime else { return nil }
        let parts = localTime.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]) else {
            throw ValidationError("--local-time wants HH:MM, got \(localTime)")
        }
        return LocalWallClock(weekday: 2, minuteOfDay: parts[0] * 60 + parts[1])
    }

    func run() async throws {
        var requests: [RefreshParameters] = []
        let wallClock = try clock()
        try forEachCSVRow(try readText(queries), limit: nil) { f in
            guard f.count >= 4, let lon = Double(f[1]), let lat = Double(f[2]) else { return }
            requests.append(
                RefreshParameters(center: try Coordinate(latitude: lat, longitude: lon), cardNetworks: [String(f[3])], localTime: wallClock))
        }
        // Parse first (the CSV text and a compact row array are not part of the index), then build:
        // resident memory and time are measured around the build only.
        struct Row {
            var id: Int64
            var lat: Double
            var lon: Double
            var network: Int32
        }
        var rowsRead: [Row] = []
        var networkNames: [String] = []
        var networkNumbers: [Substring: Int32] = [:]
        try forEachCSVRow(try readText(stores), limit: limitStores) { f in
            guard f.count >= 4, let id = Int64(f[0]), let lon = Double(f[1]), let lat = Double(f[2]) else { return }
            _ = try Coordinate(latitude: lat, longitude: lon)
            let k: Int32
            if let known = networkNumbers[f[3]] {
                k = known
            } else {
                k = Int32(networkNames.count)
                networkNumbers[f[3]] = k
                networkNames.append(String(f[3]))
            }
            rowsRead.append(Row(id: id, lat: lat, lon: lon, network: k))
        }
        // The locations as a store would hand them over, made before the clock starts: formatting their id and name
        // strings is the benchmark's work, not the index's.
        let withHours = UInt64(openingHoursShare * 1_000)
        let locations = rowsRead.map {
            // A multiplicative hash of the id picks who has hours and which: the same stores on every run.
            let hash = UInt64(bitPattern: $0.id) &* 0x9E37_79B9_7F4A_7C15
            let hours = (hash >> 32) % 1_000 < withHours ? Self.openingHoursPool[Int((hash >> 16) % 5)] : nil
            return Location(
                id: "s\($0.id)", networkId: networkNames[Int($0.network)], externalId: String($0.id), name: "store \($0.id)",
                coordinate: Coordinate(uncheckedLatitude: $0.lat, longitude: $0.lon), openingHours: hours)
        }
        LocationIndex.releaseFreedMemory()  // the CSV text just freed would otherwise be handed back during the build
        let rssBefore = residentBytes() ?? 0
        let clock = ContinuousClock()
        let t0 = clock.now
        let index = LocationIndex.build(locations: locations, networks: networkNames.map { Network(id: $0, name: $0) })
        let build = t0.duration(to: clock.now)
        let rss = withExtendedLifetime(locations) { (residentBytes() ?? 0) - rssBefore }
        let buildSeconds = Double(build.components.seconds) + Double(build.components.attoseconds) / 1e18
        guard index.count > 0, !requests.isEmpty else { throw ValidationError("no stores or no queries read") }
        let engine = RegionRefreshEngine(index: index)
        let now = Date()
        var sink = 0
        let sample = try measure("selection", inputs: requests, seconds: seconds, repeatEach: repeatEach) {
            sink &+= try engine.select($0, now: now).regionCount
        }
        let coords = rowsRead.map { Coordinate(uncheckedLatitude: $0.lat, longitude: $0.lon) }
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
        // The server's other per-request cost besides the selection: the response's JSON, against Foundation's encoder.
        let selections = try requests.prefix(2_000).map { try engine.select($0, now: now) }
        let wire = measure("wire JSON", inputs: selections, seconds: min(seconds, 3)) { sink &+= $0.wireJSON().count }
        let responses = selections.map { $0.response() }
        let encoder = JSONEncoder()
        let encoded = try measure("JSONEncoder", inputs: responses, seconds: min(seconds, 3)) { sink &+= try encoder.encode($0).count }
        let changed = try changedSelection(index, locations: locations, requests: requests, now: now)
        if sink == -1 { print("") }
        var output = Output(
            locations: index.count, queries_per_second: sample.queries_per_second, p50_us: sample.p50_us,
            p99_us: sample.p99_us, build_seconds: buildSeconds, resident_bytes: rss,
            resident_bytes_per_location: Double(rss) / Double(index.count),
            brute_force_queries_per_second: brute.queries_per_second,
            speedup_vs_brute_force: sample.queries_per_second / max(brute.queries_per_second, 1e-9),
            wire_json_us: 1e6 / wire.queries_per_second, json_encoder_us: 1e6 / encoded.queries_per_second)
        if let changed {
            output.changes = changed.changes
            output.apply_seconds = changed.seconds
            output.changed_queries_per_second = changed.sample.queries_per_second
            output.changed_p50_us = changed.sample.p50_us
            output.changed_p99_us = changed.sample.p99_us
        }
        if json {
            print(try jsonString(output, pretty: false))
            return
        }
        print(
            String(
                format:
                    "%d locations: %.0f selections/s (p50 %.1f µs, p99 %.1f µs), build %.2f s, RSS +%.0f MB (%.0f B/location); brute force %.1f q/s → %.0f×",
                index.count, sample.queries_per_second, sample.p50_us, sample.p99_us, buildSeconds, Double(rss) / 1e6,
                output.resident_bytes_per_location, brute.queries_per_second, output.speedup_vs_brute_force))
        print(
            String(
                format: "response JSON: %.1f µs (JSONEncoder %.1f µs, %.1f×)", output.wire_json_us, output.json_encoder_us,
                output.json_encoder_us / output.wire_json_us))
        if let changed {
            print(
                String(
                    format:
                        "with %d changes applied in %.3f s (%d locations in the overlay): %.0f selections/s (p50 %.1f µs, p99 %.1f µs), %.2f× the build's",
                    changed.changes, changed.seconds, changed.overlay, changed.sample.queries_per_second, changed.sample.p50_us,
                    changed.sample.p99_us,
                    changed.sample.queries_per_second / sample.queries_per_second))
        }
    }

    /// `--changed-share`: every store picked by a hash of its id moves 300 m east, as changes applied to the index
    /// (`LocationIndex.applying`), and the selection runs again on the result.
    func changedSelection(
        _ index: LocationIndex, locations: [Location], requests: [RefreshParameters], now: Date
    ) throws -> (changes: Int, seconds: Double, overlay: Int, sample: LatencySample)? {
        guard changedShare > 0 else { return nil }
        let picked = UInt64(changedShare * 1_000_000)
        // A multiplicative hash of the kit's numeric id: the same stores on every run.
        let moved = locations.filter { ((UInt64(bitPattern: Int64($0.externalId) ?? 0) &* 0x9E37_79B9_7F4A_7C15) >> 40) % 1_000_000 < picked }.map {
            l in
            var r = IndexRecord(l)
            r.coordinate = Sphere.destination(from: l.coordinate, meters: 300, bearing: 90)
            return r
        }
        let networks = index.networkSummaries
        let changes = StoreChanges(version: 1, upserted: moved, deletedIds: [], networks: networks)
        index.prepareForChanges()
        let clock = ContinuousClock()
        let t0 = clock.now
        guard let updated = index.applying(changes, limit: Int.max) else { throw ValidationError("the changes were refused") }
        let elapsed = t0.duration(to: clock.now)
        let engine = RegionRefreshEngine(index: updated)
        var sink = 0
        let sample = try measure("selection with changes", inputs: requests, seconds: seconds, repeatEach: repeatEach) {
            sink &+= try engine.select($0, now: now).regionCount
        }
        if sink == -1 { print("") }
        return (
            moved.count, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, updated.overlayCount, sample
        )
    }

    func readText(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw ValidationError("cannot read \(path)") }
        return text
    }

    /// Calls `body` with the comma-separated fields of every data row (the header is skipped).
    ///
    /// One reused field array rather than an array per row: a million freed row arrays would leave the heap
    /// fragmented, and the index build would reuse those holes, so the resident-memory figure would undercount.
    func forEachCSVRow(_ text: String, limit: Int?, _ body: ([Substring]) throws -> Void) throws {
        var rest = text[...]
        var fields: [Substring] = []
        fields.reserveCapacity(8)
        var isHeader = true
        var n = 0
        while !rest.isEmpty {
            let end = rest.firstIndex(where: \.isNewline) ?? rest.endIndex
            let line = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            if line.isEmpty { continue }
            if isHeader {
                isHeader = false
                continue
            }
            if let limit, n >= limit { break }
            fields.removeAll(keepingCapacity: true)
            var start = line.startIndex
            while let comma = line[start...].firstIndex(of: ",") {
                fields.append(line[start..<comma])
                start = line.index(after: comma)
            }
            fields.append(line[start...])
            try body(fields)
            n += 1
        }
    }
}
