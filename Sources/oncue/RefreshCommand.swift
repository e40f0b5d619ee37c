import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore
import OnCueContract
import RegionRefresh

struct Refresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer one region-refresh request from a store, exactly as POST /v1/region-refresh would.",
        discussion: """
            Prints the regions as a table, or with --format json byte for byte the JSON body \
            POST /v1/region-refresh returns for the same request (only server_time differs); --pretty indents it.

            Example:
              oncue refresh --db stores.sqlite 40.7128 -74.0060 --network ny0778 --network costco --explain
              oncue refresh --db stores.sqlite 37.77 -122.42 --local-time 2025-11-22T18:30:00-08:00
              oncue refresh --db stores.sqlite 40.7128 -74.0060 --network costco --format json
            """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup(title: "Card networks") var networks: NetworkListOptions
    @Option(help: "Regions to return, 1...100.") var maxRegions: Int = 20
    @Option(help: "Search radius in km, (0, 200].") var radiusKm: Double = 50
    @Option(help: "Fix accuracy in metres.") var accuracy: Double?
    @Option(help: "Smallest region radius the phone monitors reliably, 0...1000 m (min_radius_meters); default 0.")
    var minRadius: Double?
    @Option(help: "Phone's local time, RFC 3339 with offset (time-of-day boosts, opening hours).") var localTime: String?
    @Option(help: "With --local-time, a store closed for this many minutes ranks after the open ones; 0 ignores hours.")
    var closedLookaheadMinutes: Int = EngineConfiguration().closedLookaheadMinutes
    @Option(help: "Per-network visit counts, e.g. costco=12,sfpl=3.") var visits: String?
    @Flag(help: "Only card networks (include_other_networks = false).") var onlyCardNetworks = false
    @Flag(help: "Use one slot for the refresh region.") var reserveRefreshRegion = false
    @Flag(help: "Add score parts to each region.") var explain = false
    @OptionGroup var output: OutputOptions
    @Flag(help: "Indent the JSON (the API sends it compact).") var pretty = false
    /// The table was `--table` while JSON was the default; it is the default now, and the flag stays harmless.
    @Flag(help: .hidden) var table = false
    @Argument(parsing: .allUnrecognized, help: "LAT LON") var coordinate: [String] = []

    func request() throws -> RegionRefreshRequest {
        let c = try parseCoordinate(coordinate, of: Self.self)
        var visitCounts: [String: Int]?
        if let visits {
            var counts: [String: Int] = [:]
            for pair in visits.split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, let n = Int(kv[1]) else { throw ValidationError("--visits expects NETWORK=COUNT pairs, got '\(pair)'") }
                counts[String(kv[0])] = n
            }
            visitCounts = counts
        }
        var request = RegionRefreshRequest(
            lat: c.latitude, lon: c.longitude, accuracy: accuracy, radiusKm: radiusKm, userNetworks: networks.ids, maxRegions: maxRegions)
        request.networkVisits = visitCounts
        request.localTime = localTime
        request.includeOtherNetworks = !onlyCardNetworks
        request.reserveRefreshRegion = reserveRefreshRegion
        request.explain = explain
        request.minRadiusMeters = minRadius
        do { _ = try request.validated() } catch { throw ValidationError(error.description) }
        return request
    }

    func validate() throws {
        _ = try request()
        guard (0...EngineConfiguration.maxClosedLookaheadMinutes).contains(closedLookaheadMinutes) else {
            throw ValidationError(
                "--closed-lookahead-minutes must be in 0...\(EngineConfiguration.maxClosedLookaheadMinutes), got \(closedLookaheadMinutes)")
        }
    }

    func run() async throws {
        let parameters = try request().validated()
        let engine = RegionRefreshEngine(configuration: EngineConfiguration(closedLookaheadMinutes: closedLookaheadMinutes))
        // The locations this point can reach, not the whole store; the whole store when a budget may have decided.
        let selection = try await store.withStore(readOnly: true) { store in
            try await engine.reload(for: parameters, from: store)
            let near = try engine.select(parameters, now: Date())
            guard engine.needsFullIndex(near) else { return near }
            try await engine.reload(from: store)
            return try engine.select(parameters, now: Date())
        }
        let response = selection.response()
        if output.isJSON || pretty {
            print(pretty ? try jsonString(response) : String(decoding: response.wireJSON(), as: UTF8.self))
            return
        }
        // With --explain the table also says why each radius: its rule (tier), the radius before the floor, people per
        // km² and stores within 1 km.
        let why = explain ? ["rule", "own_m", "people/km²", "stores≤1km"] : []
        print(
            textTable(
                ["#", "network", "id", "radius_m"] + why + ["lat", "lon", "name"],
                response.regions.map { r in
                    let reasons =
                        r.explain.map {
                            [$0.radiusRule, String(Int($0.radiusBeforeFloorMeters)), String($0.placeDensity), String($0.localDensity)]
                        } ?? (explain ? ["", "", "", ""] : [])
                    return [String(r.priority), r.networkId, r.id, String(Int(r.radiusMeters))] + reasons
                        + [String(format: "%.6f", r.lat), String(format: "%.6f", r.lon), r.name]
                }), terminator: "")
        print("refresh_after_meters: \(Int(response.refreshAfterMeters))  coverage_guaranteed: \(response.coverageGuaranteed)")
    }
}
