import Foundation
import Geo
import LocationStore

/// A card-network location with its ground-truth footprint.
package struct CandidateStore: Sendable, Hashable {
    package var location: Location
    /// The store's footprint radius for ground truth (its own radius, venue radius, or the scenario default).
    package var radiusMeters: Double
    var unit: UnitVector
}

/// The locations of the wallet's networks, for ground truth and the oracle (the engine answers the phone).
public struct StoreCatalog: Sendable {
    package let stores: [CandidateStore]
    /// The footprint of locations without a radius of their own.
    public let storeRadiusMeters: Double
    /// Each location's position, by id.
    let positions: [String: UnitVector]
    /// Each network's category, where it has one (the till comes sooner at some: `pay_after_by_category`).
    package let categories: [String: String]

    public init(locations: [Location], storeRadiusMeters: Double, categories: [String: String] = [:]) {
        self.storeRadiusMeters = storeRadiusMeters
        self.categories = categories
        stores = locations.map {
            CandidateStore(
                location: $0, radiusMeters: $0.radiusMeters ?? $0.venueRadiusMeters ?? storeRadiusMeters,
                unit: UnitVector(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude))
        }.sorted { $0.location.id < $1.location.id }
        positions = Dictionary(stores.map { ($0.location.id, $0.unit) }, uniquingKeysWith: { a, _ in a })
    }

    /// Reads the wallet's networks' locations from a store.
    public static func load(from store: any LocationStore, networks: Set<String>, storeRadiusMeters: Double) async throws -> StoreCatalog {
        var locations: [Location] = []
        try await store.forEachLocation(batchSize: 10_000) { batch in
            locations += batch.lazy.filter { networks.contains($0.networkId) }
        }
        var categories: [String: String] = [:]
        for summary in try await store.networks() where networks.contains(summary.network.id) {
            if let category = summary.network.category { categories[summary.network.id] = category }
        }
        return StoreCatalog(locations: locations, storeRadiusMeters: storeRadiusMeters, categories: categories)
    }

    /// Stores within `margin` metres of some fix of the trace (bounding-box prefilter, then per-fix distance).
    package func candidates(for trace: Trace, margin: Double) -> [CandidateStore] {
        let fixes = trace.fixes
        guard !fixes.isEmpty else { return [] }
        var minLat = 90.0
        var maxLat = -90.0
        var minLon = 180.0
        var maxLon = -180.0
        for f in fixes {
            minLat = min(minLat, f.latitude)
            maxLat = max(maxLat, f.latitude)
            minLon = min(minLon, f.longitude)
            maxLon = max(maxLon, f.longitude)
        }
        // A degree taken as a little shorter than the sphere's: the box errs towards keeping a store, and the exact
        // test below decides.
        let metersPerDegree = Sphere.metersPerDegree * 0.998
        let dLat = margin / metersPerDegree
        let dLon = margin / (metersPerDegree * max(0.05, cos(max(abs(minLat), abs(maxLat)) * .pi / 180)))
        let boxed = stores.filter {
            let c = $0.location.coordinate
            return c.latitude >= minLat - dLat && c.latitude <= maxLat + dLat && c.longitude >= minLon - dLon && c.longitude <= maxLon + dLon
        }
        guard !boxed.isEmpty else { return [] }
        // Thin the trace to one fix per ~margin/2 of travel: enough for a "within margin" test with margin/2 slack.
        var probe: [UnitVector] = []
        let step = UnitVector.cosOf(meters: margin / 2)
        for f in fixes {
            let u = UnitVector(latitude: f.latitude, longitude: f.longitude)
            if let last = probe.last, last.dot(u) >= step { continue }
            probe.append(u)
        }
        let reach = UnitVector.cosOf(meters: margin * 1.5)
        return boxed.filter { s in probe.contains { $0.dot(s.unit) >= reach } }
    }
}

extension StoreCatalog {
    /// How close a trace must come to a card location for the replay to have something to measure there; far wider
    /// than any footprint, so a miss means the traces and the store are of different places.
    package static let reachMeters = 1_000.0

    /// How many of `traces` pass within `reachMeters` of some card location, and, when none does, roughly how far the
    /// nearest one stays (from each trace's first, middle and last fix): a run of Beijing traces against US stores says
    /// so instead of reporting no moments.
    package func reach(of traces: [Trace]) -> (near: Int, nearestMeters: Double?) {
        let near = traces.filter { !candidates(for: $0, margin: Self.reachMeters).isEmpty }.count
        guard near == 0, !stores.isEmpty else { return (near, nil) }
        var best: (dot: Double, a: UnitVector, b: UnitVector)?
        for trace in traces {
            let fixes = trace.fixes
            guard !fixes.isEmpty else { continue }
            for f in [fixes[0], fixes[fixes.count / 2], fixes[fixes.count - 1]] {
                let u = UnitVector(latitude: f.latitude, longitude: f.longitude)
                for s in stores where best.map({ u.dot(s.unit) > $0.dot }) ?? true { best = (u.dot(s.unit), u, s.unit) }
            }
        }
        return (0, best.map { $0.a.meters(to: $0.b) })
    }
}
