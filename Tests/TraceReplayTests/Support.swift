import Foundation
import Geo
import LocationStore
import OnCueClient
import OnCueContract
import RegionRefresh

@testable import TraceReplay

/// A brute-force `RegionRefreshing`: nearest card locations first, a fixed radius, refresh distance = the nearest
/// unselected boundary (floor 100 m), an optional refresh region; `min_radius_meters` raises the radius. Independent
/// of the engine on purpose.
struct BruteForceRefresher: RegionRefreshing {
    var locations: [Location]
    var radius: Double = 100
    var failCalls: Set<Int> = []
    let counter = Counter()

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            n += 1
            return n
        }
    }

    struct Down: Error {}

    func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse {
        let call = counter.next()
        if failCalls.contains(call) { throw Down() }
        let here = Coordinate(uncheckedLatitude: request.lat, longitude: request.lon)
        let networks = Set(request.userNetworks ?? [])
        let ranked = locations.filter { networks.contains($0.networkId) }
            .map { ($0, Sphere.distance(here, $0.coordinate)) }
            .filter { $0.1 <= (request.radiusKm ?? 50) * 1000 }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        let bubble = request.reserveRefreshRegion == true
        let k = (request.maxRegions ?? 20) - (bubble ? 1 : 0)
        let radius = max(self.radius, request.minRadiusMeters ?? 0)
        let chosen = ranked.prefix(k)
        let rest = ranked.dropFirst(k)
        let d = max(100, rest.map { $0.1 - radius }.min() ?? 50_000)
        var regions = chosen.enumerated().map { i, p in
            Region(
                id: p.0.id, networkId: p.0.networkId, lat: p.0.coordinate.latitude, lon: p.0.coordinate.longitude, radiusMeters: radius,
                priority: i + 1, name: p.0.name, address: nil)
        }
        if bubble {
            regions.append(
                Region(
                    id: "oncue-refresh", networkId: "", lat: request.lat, lon: request.lon, radiusMeters: d, priority: regions.count + 1,
                    name: "refresh", address: nil, kind: .refresh))
        }
        return RegionRefreshResponse(
            regions: regions, refreshAfterMeters: d.rounded(), cacheTtlSeconds: 21_600,
            serverTime: TraceTime.format(now.timeIntervalSince1970), coverageGuaranteed: true)
    }
}

/// Geometry helpers for hand-built traces around (0°, 0°): one degree of latitude is 111,195 m.
enum Hand {
    static let metersPerDegree = Sphere.earthRadiusMeters * .pi / 180
    /// A point `north` metres north and `east` metres east of (lat, lon).
    static func point(north: Double, east: Double = 0, lat: Double = 0, lon: Double = 0) -> (Double, Double) {
        (lat + north / metersPerDegree, lon + east / (metersPerDegree * cos(lat * .pi / 180)))
    }

    static func store(_ id: String, north: Double, east: Double = 0, network: String = "acme") -> Location {
        let (lat, lon) = point(north: north, east: east)
        return Location(networkId: network, externalId: id, name: "Acme \(id)", coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon))
    }

    static func fix(_ t: Double, north: Double, east: Double = 0, accuracy: Double = 0) -> PhoneFix {
        let (lat, lon) = point(north: north, east: east)
        return PhoneFix(
            time: t, latitude: lat, longitude: lon, accuracy: accuracy, source: 0, trueLatitude: lat, trueLongitude: lon,
            traceAccuracy: 0, segment: 0, unit: UnitVector(latitude: lat, longitude: lon), trueUnit: UnitVector(latitude: lat, longitude: lon))
    }

    static func region(_ id: String, north: Double, east: Double = 0, radius: Double, network: String = "acme", merged: [String]? = nil) -> Region {
        let (lat, lon) = point(north: north, east: east)
        return Region(
            id: id, networkId: network, lat: lat, lon: lon, radiusMeters: radius, priority: 1, name: id, address: nil,
            mergedLocationIds: merged)
    }

    /// A trace of (seconds, metres north) points.
    static func trace(_ points: [(Double, Double)], name: String = "hand") -> Trace {
        let fixes = points.map { t, n in
            let (lat, lon) = point(north: n)
            return TraceFix(time: 1_000_000 + t, latitude: lat, longitude: lon)
        }
        var report = TraceReport(file: name, format: "test")
        report.points = fixes.count
        return Trace(name: name, segments: [fixes], report: report)
    }

    static let wallet = Wallet(cards: [.init(networkId: "acme", name: "Acme")])

    /// A deterministic ideal-fix iOS scenario (no noise, no dropouts, fences checked at every fix, fixed 5 s detection
    /// delay, instant network, the card posted at once).
    static func iosExact() throws -> Scenario {
        var s = try Scenario.profile("ios")
        s.fixes = .exact
        s.network = .instant
        s.os.detectionDelayMinSeconds = 5
        s.os.detectionDelayMaxSeconds = 5
        s.os.fenceCheckMovingSeconds = 0
        s.os.fenceCheckStationarySeconds = 0
        s.app.confirmSeconds = 0
        return s
    }

    /// The ideal OS with the iOS region limit: every fix, exact, instant.
    static func idealScenario() throws -> Scenario {
        var s = try iosExact()
        s.os = .ideal
        return s
    }

    /// Replays `trace` under `strategies` among `stores` (the brute-force refresher unless one is given).
    static func replay(
        _ trace: Trace, stores: [Location], strategies: [String], scenario: Scenario? = nil, refresher: (any RegionRefreshing)? = nil
    ) async throws -> TraceRun {
        let sc = try scenario ?? iosExact()
        let catalog = StoreCatalog(locations: stores, storeRadiusMeters: sc.groundTruth.storeRadiusMeters)
        let context = ReplayContext(
            scenario: sc, wallet: wallet, catalog: catalog, refresher: refresher ?? BruteForceRefresher(locations: stores))
        return await ReplayRunner.run(trace, strategies: try strategies.map(Strategy.parse), context: context)
    }

    /// Walk north at 1.5 m/s from 300 m south, stay 300 s at a store at 0 m, walk on north. Within a 25 m footprint's
    /// 35 m reach from 177 s to 523 s, so the till comes at arrival + half the stay, 350 s.
    static let shortStop: Trace = {
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 200, by: 1) { pts.append((t, -300 + 1.5 * t)) }
        for t in stride(from: 201.0, through: 500, by: 1) { pts.append((t, 0)) }
        for t in stride(from: 501.0, through: 900, by: 1) { pts.append((t, 1.5 * (t - 500))) }
        return trace(pts)
    }()

    /// Stays of (start seconds, minutes, metres north), 10 s apart.
    static func stays(_ list: [(Double, Int, Double)]) -> Trace {
        var pts: [(Double, Double)] = []
        for (from, minutes, north) in list { for i in 0..<(minutes * 6) { pts.append((from + Double(i) * 10, north)) } }
        return trace(pts)
    }

    static func visit(_ id: String, _ a: Double, _ d: Double, network: String = "acme", seenLeaving: Bool = true) -> Visit {
        Visit(locationId: id, networkId: network, name: id, lat: 0, lon: 0, arrival: a, departure: d, seenLeaving: seenLeaving)
    }
}
