import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// `min_radius_meters`: the phone's floor applied by the server, so that merging, `refresh_after_meters` and the
/// guarantee are computed for the radii the phone really monitors (clamping on the phone voided all three).
@Suite("Minimum radius in the request", .cpuHeavy)
struct MinRadiusTests {
    static let networks = AccuracyGuaranteeTests.networks

    @Test("random floors: every region is at least the floor, unmerged regions of a network never overlap, the guarantee holds for floored radii")
    func floorHoldsEverywhere() throws {
        var rng = SeededRandom(seed: 4_441)
        let cases = TestScale.cases(8_000)
        let layouts = 20
        var floorsThatMattered = 0
        var guaranteed = 0
        for _ in 0..<layouts {
            let center = Coordinate(uncheckedLatitude: .random(in: -60...60, using: &rng), longitude: .random(in: -179...179, using: &rng))
            // Dense layouts (a few hundred metres) are where a floor changes radii and merges.
            let spread = [400.0, 2_000, 20_000][Int.random(in: 0..<3, using: &rng)]
            let locations = AccuracyGuaranteeTests.layout(center: center, spread: spread, rng: &rng)
            let index = LocationIndex.build(locations: locations, networks: Self.networks)
            var ownRadius: [String: Double] = [:]
            for i in 0..<index.count { ownRadius[index.id(i)] = Double(index.radius[i]) }
            let engine = RegionRefreshEngine(index: index)
            for _ in 0..<(cases / layouts) {
                let phone = Sphere.destination(
                    from: center, meters: .random(in: 0...spread * 1.5, using: &rng), bearing: .random(in: 0..<360, using: &rng))
                let floor = Bool.random(using: &rng) ? 0 : Double.random(in: 0...1_000, using: &rng)
                let accuracy = Double.random(in: 0...200, using: &rng)
                var cards = Self.networks.map(\.id).filter { _ in Bool.random(using: &rng) }
                if cards.isEmpty { cards = ["beta"] }
                let p = RefreshParameters(
                    center: phone, accuracyMeters: accuracy, radiusMeters: 50_000, cardNetworks: cards,
                    maxRegions: [3, 5, 20][Int.random(in: 0..<3, using: &rng)], minRadiusMeters: floor)
                let response = try engine.refresh(p, now: Date())
                var monitored = Set<String>()
                for r in response.regions {
                    #expect(r.radiusMeters >= floor.rounded(.down), "a \(r.radiusMeters) m region under a \(floor) m floor")
                    monitored.insert(r.id)
                    for m in r.mergedLocationIds ?? [] { monitored.insert(m) }
                }
                if response.regions.contains(where: { ownRadius[$0.id].map { $0 < floor } ?? false }) { floorsThatMattered += 1 }
                Self.expectNoOverlap(response.regions)
                var nearest = Double.infinity
                for l in locations where cards.contains(l.networkId) && !monitored.contains(l.id) {
                    nearest = min(nearest, Sphere.distance(phone, l.coordinate) - max(ownRadius[l.id]!, floor))
                }
                if response.coverageGuaranteed {
                    guaranteed += 1
                    #expect(
                        nearest - accuracy >= response.refreshAfterMeters - 1e-6, "floor \(floor): \(nearest - accuracy) m to an unmonitored store")
                }
            }
        }
        #expect(floorsThatMattered > cases / 10)
        #expect(guaranteed > cases / 10)
    }

    /// Two regions of one network that each hold a single location (nothing merged, not a split venue) were both
    /// compared for merging: neither centre lies inside the other's floored circle.
    static func expectNoOverlap(_ regions: [Region]) {
        let singles = regions.filter { $0.kind == .location && ($0.mergedCount ?? 0) == 0 && !$0.id.contains("#") }
        for (i, a) in singles.enumerated() {
            for b in singles[(i + 1)...] where a.networkId == b.networkId {
                let d = Sphere.distance(
                    Coordinate(uncheckedLatitude: a.lat, longitude: a.lon), Coordinate(uncheckedLatitude: b.lat, longitude: b.lon))
                #expect(d > max(a.radiusMeters, b.radiusMeters) - 1, "\(a.id) and \(b.id) overlap (\(d) m apart) but were not merged")
            }
        }
    }

    @Test("a dense block: 40 m regions become 100 m ones, merged where they now overlap, and explain shows both radii")
    func denseBlockUnderAFloor() throws {
        let corner = Coordinate(uncheckedLatitude: 40.7580, longitude: -73.9855)
        // One network's stores 60 m apart along a street, each with an explicit 40 m radius.
        let locations = (0..<6).map { i in
            Location(
                networkId: "alpha", externalId: String(i), name: "s\(i)",
                coordinate: Sphere.destination(from: corner, meters: Double(i) * 60, bearing: 90), radiusMeters: 40)
        }
        let engine = RegionRefreshEngine(index: LocationIndex.build(locations: locations, networks: Self.networks))
        let plain = try engine.refresh(RefreshParameters(center: corner, cardNetworks: ["alpha"], explain: true), now: Date())
        #expect(plain.regions.count == 6)
        #expect(plain.regions.allSatisfy { $0.radiusMeters == 40 })

        let floored = try engine.refresh(
            RefreshParameters(center: corner, cardNetworks: ["alpha"], explain: true, minRadiusMeters: 100), now: Date())
        // 60 m apart under 100 m circles: every store overlaps its neighbour, so they merge into fewer regions.
        #expect(floored.regions.count < 6)
        #expect(floored.regions.allSatisfy { $0.radiusMeters >= 100 })
        let monitored = floored.regions.reduce(0) { $0 + 1 + ($1.mergedCount ?? 0) }
        #expect(monitored == 6)
        let explain = try #require(floored.regions.first?.explain)
        #expect(explain.radiusBeforeFloorMeters == 40)
        #expect(explain.radiusAfterFloorMeters == 100)
    }

    @Test("the engine's default floor applies to requests without one; a request's own floor wins, 0 included")
    func engineDefault() throws {
        let center = Coordinate(uncheckedLatitude: 51.5, longitude: -0.12)
        let locations = [Location(networkId: "alpha", externalId: "1", name: "s", coordinate: center, radiusMeters: 50)]
        let index = LocationIndex.build(locations: locations, networks: Self.networks)
        let engine = RegionRefreshEngine(index: index, configuration: EngineConfiguration(minRadiusMeters: 150))
        #expect(try engine.refresh(RefreshParameters(center: center), now: Date()).regions[0].radiusMeters == 150)
        #expect(try engine.refresh(RefreshParameters(center: center, minRadiusMeters: 0), now: Date()).regions[0].radiusMeters == 50)
        #expect(try engine.refresh(RefreshParameters(center: center, minRadiusMeters: 300), now: Date()).regions[0].radiusMeters == 300)
    }
}
