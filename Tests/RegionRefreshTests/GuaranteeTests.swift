import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// The no-miss guarantee on real chain data: after any move shorter than `refresh_after_meters`,
/// no unmonitored card-network location contains the phone.
@Suite(.cpuHeavy) struct GuaranteeTests {
    @Test(.needsSharedDatasets) func movesShorterThanTheRefreshDistanceEnterNoUnmonitoredRegion() throws {
        let fixture = try realFixture.get()
        let index = fixture.index
        let engine = RegionRefreshEngine(index: index)
        var rng = SeededRandom(seed: 77)
        var slot: [String: Int] = [:]
        for i in 0..<index.count { slot[index.id(i)] = i }
        var guaranteed = 0
        var moves = 0
        for _ in 0..<TestScale.cases(150) {
            var p = randomParameters(&rng, fixture: fixture)
            if p.cardNetworks.isEmpty { p.cardNetworks = ["mcdonald-s", "chipotle", "costco"] }
            p.maxRegions = [5, 10, 20][Int.random(in: 0..<3, using: &rng)]
            let response = try engine.refresh(p, now: Date())
            guard response.coverageGuaranteed else { continue }
            guaranteed += 1
            var monitored = Set<String>()
            for r in response.regions {
                monitored.insert(r.id)
                for m in r.mergedLocationIds ?? [] { monitored.insert(m) }
            }
            let cards = Set(p.cardNetworks)
            let unmonitored = fixture.locations.filter { cards.contains($0.networkId) && !monitored.contains($0.id) }
            for _ in 0..<25 {
                let step = Double.random(in: 0..<1, using: &rng) * response.refreshAfterMeters
                let moved = Sphere.destination(from: p.center, meters: step, bearing: .random(in: 0..<360, using: &rng))
                moves += 1
                for u in unmonitored {
                    let r = Double(index.radius[slot[u.id]!])
                    #expect(Sphere.distance(moved, u.coordinate) > r, "moved \(step) m of \(response.refreshAfterMeters) and entered \(u.id)")
                }
            }
        }
        #expect(guaranteed > 100)
        #expect(moves > 2_500)
    }
}
