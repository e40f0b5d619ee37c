import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// The guarantee at any accuracy, against brute force: whenever a response says `coverage_guaranteed`, no card
/// location it leaves unmonitored can be entered by moving less than `refresh_after_meters` from any true position
/// within the accuracy circle — that is, d − r − accuracy ≥ `refresh_after_meters` for each of them. The accuracy is
/// counted whole: a 5 km fix used to be capped at 1 km and promised coverage it could not back.
@Suite("Coverage guarantee at any accuracy", .cpuHeavy)
struct AccuracyGuaranteeTests {
    static let networks = ["alpha", "beta", "gamma"].map { Network(id: $0, name: $0, category: "grocery") }

    /// 90 locations of three networks scattered within `spread` metres of `center`.
    static func layout(center: Coordinate, spread: Double, rng: inout SeededRandom) -> [Location] {
        (0..<90).map { i in
            let c = Sphere.destination(
                from: center, meters: spread * Double.random(in: 0...1, using: &rng).squareRoot(),
                bearing: .random(in: 0..<360, using: &rng))
            return Location(networkId: networks[i % 3].id, externalId: String(i), name: "store \(i)", coordinate: c)
        }
    }

    @Test("30,000 random requests (times ONCUE_TEST_SCALE), accuracies 0 to 50 km: every guarantee holds for every true position")
    func everyGuaranteeHolds() throws {
        var rng = SeededRandom(seed: 2_029)
        let cases = TestScale.cases(30_000)
        let layouts = 25
        var guaranteed = 0
        var refusedForAccuracy = 0
        for _ in 0..<layouts {
            let center = Coordinate(uncheckedLatitude: .random(in: -60...60, using: &rng), longitude: .random(in: -179...179, using: &rng))
            let spread = [2_000.0, 20_000, 80_000][Int.random(in: 0..<3, using: &rng)]
            let locations = Self.layout(center: center, spread: spread, rng: &rng)
            let index = LocationIndex.build(locations: locations, networks: Self.networks)
            var radius: [String: Double] = [:]
            for i in 0..<index.count { radius[index.id(i)] = Double(index.radius[i]) }
            let engine = RegionRefreshEngine(index: index)
            for _ in 0..<(cases / layouts) {
                let phone = Sphere.destination(
                    from: center, meters: .random(in: 0...spread * 1.5, using: &rng), bearing: .random(in: 0..<360, using: &rng))
                let accuracy = Double.random(in: 0..<1, using: &rng) < 0.1 ? 0 : exp(.random(in: 0...log(50_000.0), using: &rng))
                var cards = Self.networks.map(\.id).filter { _ in Bool.random(using: &rng) }
                if cards.isEmpty { cards = ["alpha"] }
                let p = RefreshParameters(
                    center: phone, accuracyMeters: accuracy, radiusMeters: 50_000, cardNetworks: cards,
                    maxRegions: [1, 3, 5, 20][Int.random(in: 0..<4, using: &rng)])
                let response = try engine.refresh(p, now: Date())
                var monitored = Set<String>()
                for r in response.regions {
                    monitored.insert(r.id)
                    for m in r.mergedLocationIds ?? [] { monitored.insert(m) }
                }
                // The smallest d − r over the card locations the response does not monitor.
                var nearest = Double.infinity
                for l in locations where cards.contains(l.networkId) && !monitored.contains(l.id) {
                    nearest = min(nearest, Sphere.distance(phone, l.coordinate) - radius[l.id]!)
                }
                if response.coverageGuaranteed {
                    guaranteed += 1
                    #expect(response.coverageReason == nil)
                    #expect(
                        nearest - accuracy >= response.refreshAfterMeters - 1e-6,
                        "accuracy \(accuracy) m: an unmonitored card location is \(nearest - accuracy) m away, refresh after \(response.refreshAfterMeters)"
                    )
                } else {
                    let reason = try #require(response.coverageReason)
                    // The reason is true to the distances: without the accuracy there would (or would not) be a guarantee.
                    #expect((reason == .accuracy) == (nearest >= 100 - 1e-6), "\(reason) with d − r = \(nearest)")
                    if reason == .accuracy { refusedForAccuracy += 1 }
                }
            }
        }
        #expect(guaranteed > cases / 10)
        #expect(refusedForAccuracy > cases / 10)
    }

    @Test("a 5 km fix far from its nearest unmonitored store 1 km away has no guarantee, and says why")
    func coarseFixNearAStore() throws {
        let phone = Coordinate(uncheckedLatitude: 40.7, longitude: -74.0)
        let locations = (0..<25).map { i in
            Location(
                networkId: "alpha", externalId: String(i), name: "s",
                coordinate: Sphere.destination(from: phone, meters: 1_000 + Double(i) * 10, bearing: Double(i) * 14), radiusMeters: 100)
        }
        let engine = RegionRefreshEngine(index: LocationIndex.build(locations: locations, networks: Self.networks))
        let response = try engine.refresh(
            RefreshParameters(center: phone, accuracyMeters: 5_000, cardNetworks: ["alpha"], maxRegions: 20), now: Date())
        #expect(!response.coverageGuaranteed)
        #expect(response.coverageReason == .accuracy)
        #expect(String(decoding: response.wireJSON(), as: UTF8.self).contains(#""coverage_reason":"accuracy""#))
    }
}
