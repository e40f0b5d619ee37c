import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// A point that may lie far from its store (coordinates rounded to two decimals: ±0.55 km) is served as a region at
/// least that large, and the coverage guarantee counts that radius.
@Suite("Uncertain points", .cpuHeavy)
struct UncertainPointTests {
    static let networks = ["alpha", "beta"].map { Network(id: $0, name: $0, category: "coffee") }
    static let midtown = Coordinate(uncheckedLatitude: 40.75, longitude: -73.99)

    @Test("a 0.01-degree point in Midtown gets a region of at least its uncertainty; the precise one beside it does not")
    func coarsePointBesideAPreciseOne() throws {
        let coarse = Location(
            networkId: "alpha", externalId: "coarse", name: "Coarse", coordinate: Self.midtown, positionUncertaintyMeters: 556)
        let precise = Location(
            networkId: "alpha", externalId: "precise", name: "Precise",
            coordinate: Sphere.destination(from: Self.midtown, meters: 120, bearing: 90))
        let index = LocationIndex.build(locations: [coarse, precise], networks: Self.networks)
        var slot: [String: Int] = [:]
        for i in 0..<index.count { slot[index.id(i)] = i }
        let c = try #require(slot[coarse.id])
        let p = try #require(slot[precise.id])
        #expect(index.radius[c] >= 556 && index.rule[c] == .uncertain)
        #expect(index.radius[p] <= 100 && index.rule[p] == .dense, "Midtown's dense tier: \(index.radius[p]) m")
        let response = try RegionRefreshEngine(index: index).refresh(
            RefreshParameters(center: Self.midtown, cardNetworks: ["alpha"], maxRegions: 20, explain: true), now: Date())
        let served = try #require(response.regions.first { $0.id == coarse.id || ($0.mergedLocationIds ?? []).contains(coarse.id) })
        #expect(served.radiusMeters >= 556)
        // explain reads the rule off the search tree, where a location's rule has three bits.
        #expect(served.explain?.radiusRule == "uncertain", "\(String(describing: served.explain?.radiusRule))")
        #expect(RadiusPolicy.Rule.allCases.filter { $0 != .merged }.allSatisfy { $0.rawValue < 8 })
    }

    @Test("with uncertain points among the locations, every guarantee holds for every move shorter than refresh_after")
    func guaranteeCountsUncertainty() throws {
        var rng = SeededRandom(seed: 4_111)
        var guaranteed = 0
        for _ in 0..<20 {
            let center = Coordinate(uncheckedLatitude: .random(in: -50...60, using: &rng), longitude: .random(in: -170...170, using: &rng))
            let locations: [Location] = (0..<80).map { i in
                let at = Sphere.destination(
                    from: center, meters: 8_000 * Double.random(in: 0...1, using: &rng).squareRoot(), bearing: .random(in: 0..<360, using: &rng))
                let uncertain = i % 3 == 0 ? Double.random(in: 50...1_500, using: &rng) : nil
                return Location(
                    networkId: Self.networks[i % 2].id, externalId: String(i), name: "s\(i)", coordinate: at, positionUncertaintyMeters: uncertain)
            }
            let index = LocationIndex.build(locations: locations, networks: Self.networks)
            var radius: [String: Double] = [:]
            for i in 0..<index.count { radius[index.id(i)] = Double(index.radius[i]) }
            for l in locations { #expect(radius[l.id]! >= (l.positionUncertaintyMeters ?? 0) - 0.01, "\(l.id)") }
            let engine = RegionRefreshEngine(index: index)
            for _ in 0..<100 {
                let phone = Sphere.destination(from: center, meters: .random(in: 0...9_000, using: &rng), bearing: .random(in: 0..<360, using: &rng))
                let p = RefreshParameters(center: phone, cardNetworks: ["alpha"], maxRegions: [1, 3, 5, 10][Int.random(in: 0..<4, using: &rng)])
                let response = try engine.refresh(p, now: Date())
                guard response.coverageGuaranteed else { continue }
                guaranteed += 1
                var monitored = Set<String>()
                for r in response.regions {
                    monitored.insert(r.id)
                    for m in r.mergedLocationIds ?? [] { monitored.insert(m) }
                }
                for l in locations where l.networkId == "alpha" && !monitored.contains(l.id) {
                    let gap = Sphere.distance(phone, l.coordinate) - max(radius[l.id]!, l.positionUncertaintyMeters ?? 0)
                    #expect(gap >= response.refreshAfterMeters - 1e-6, "\(l.id): \(gap) m against refresh after \(response.refreshAfterMeters)")
                }
            }
        }
        #expect(guaranteed > 500)
    }
}
