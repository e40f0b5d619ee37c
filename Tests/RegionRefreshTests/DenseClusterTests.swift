import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// A selection's work is bounded whatever the data: thousands of one network within a few hundred metres, or piled on
/// one point, used to be merged candidate by candidate against every circle merged before (quadratic), and a tier
/// restarted with twice the candidates until merges had consumed the whole cluster. Checked here by what bounds the
/// work (candidates consumed, ids listed), and against brute force for what the answer promises.
@Suite("Selection in dense clusters", .cpuHeavy)
struct DenseClusterTests {
    static let origin = Coordinate(uncheckedLatitude: 40.758, longitude: -73.9855)

    /// `count` locations of network "dense" spread over a square `side` metres wide around the origin (0: one point).
    static func cluster(count: Int, side: Double, seed: UInt64) -> [Location] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { i in
            let east = side == 0 ? 0 : Double.random(in: -side / 2...side / 2, using: &rng)
            let north = side == 0 ? 0 : Double.random(in: -side / 2...side / 2, using: &rng)
            let c = Sphere.destination(from: Sphere.destination(from: origin, meters: north, bearing: 0), meters: east, bearing: 90)
            return Location(networkId: "dense", externalId: String(i), name: "Dense \(i)", coordinate: c)
        }
    }

    static func index(_ locations: [Location]) -> LocationIndex {
        LocationIndex.build(locations: locations, networks: [Network(id: "dense", name: "Dense", category: "coffee")])
    }

    /// An engine whose work is bounded by its candidate budget alone (the visit budget, which bounds it too, is
    /// `CrowdedLayoutTests`' subject).
    static func engine(_ locations: [Location], budget: Int = EngineConfiguration().candidateBudget) -> RegionRefreshEngine {
        RegionRefreshEngine(index: index(locations), configuration: EngineConfiguration(candidateBudget: budget, visitBudget: .max))
    }

    static func parameters(cards: [String]) -> RefreshParameters {
        RefreshParameters(center: origin, accuracyMeters: 10, radiusMeters: 50_000, cardNetworks: cards, maxRegions: 20)
    }

    @Test("a pile-up on one point: one region, its ids cut at the limit, the count exact, the budget said")
    func pileUp() throws {
        let locations = Self.cluster(count: 6_000, side: 0, seed: 1)
        let engine = Self.engine(locations)
        for cards in [[], ["dense"]] {
            let response = try engine.refresh(Self.parameters(cards: cards), now: Date())
            let region = try #require(response.regions.first)
            #expect(response.regions.count == 1)
            #expect((region.mergedLocationIds ?? []).count == EngineConfiguration().mergedIdsLimit)
            // Every location stands on the region's centre; the budget stopped the merging before all 5,999 joined.
            #expect(region.mergedCount == EngineConfiguration().candidateBudget - 1)
            #expect(response.selectionLimited == true)
            // The rest are unmonitored card locations at distance 0 inside the region: no guarantee is possible.
            if !cards.isEmpty { #expect(!response.coverageGuaranteed && response.refreshAfterMeters == 100) }
        }
    }

    @Test("a dense square: every region within the limits, and the guarantee true to brute force")
    func denseSquare() throws {
        let locations = Self.cluster(count: 20_000, side: 600, seed: 2)
        let index = Self.index(locations)
        let engine = RegionRefreshEngine(index: index, configuration: EngineConfiguration(candidateBudget: 1_024, visitBudget: .max))
        let p = Self.parameters(cards: ["dense"])
        let response = try engine.refresh(p, now: Date())
        #expect(!response.regions.isEmpty)
        var consumed = 0
        for region in response.regions {
            #expect((region.mergedLocationIds ?? []).count <= EngineConfiguration().mergedIdsLimit)
            #expect((region.mergedCount ?? 0) >= (region.mergedLocationIds ?? []).count)
            consumed += 1 + (region.mergedCount ?? 0)
        }
        #expect(consumed <= 1_024)
        // D may not exceed d − r − accuracy of any location the response leaves unmonitored. Members past the listed
        // ids are not named, so only locations outside every region's circle are taken as unmonitored here.
        var bound = Double.infinity
        for i in 0..<index.count {
            let c = index.coordinate(i)
            let inside = response.regions.contains {
                Sphere.distance(Coordinate(uncheckedLatitude: $0.lat, longitude: $0.lon), c) <= $0.radiusMeters
            }
            if !inside { bound = min(bound, Sphere.distance(p.center, c) - Double(index.radius[i]) - (p.accuracyMeters ?? 0)) }
        }
        #expect(bound.isFinite)
        if response.coverageGuaranteed { #expect(response.refreshAfterMeters <= bound + 0.01) }
    }

    @Test("a sparse network is not limited and lists every merged id")
    func sparseIsUnchanged() throws {
        // Pairs 5 m apart, 2 km between pairs: each pair merges into one region of two.
        var locations: [Location] = []
        for i in 0..<30 {
            let c = Sphere.destination(from: Self.origin, meters: Double(i) * 2_000, bearing: 90)
            locations.append(Location(networkId: "dense", externalId: "\(i)a", name: "a", coordinate: c, radiusMeters: 50))
            locations.append(
                Location(
                    networkId: "dense", externalId: "\(i)b", name: "b", coordinate: Sphere.destination(from: c, meters: 5, bearing: 0),
                    radiusMeters: 50))
        }
        let response = try Self.engine(locations).refresh(Self.parameters(cards: ["dense"]), now: Date())
        #expect(response.selectionLimited == nil)
        #expect(response.regions.count == 20)
        // The last slot fills with the first of its pair; the selection ends before the second could join it.
        #expect(response.regions.dropLast().allSatisfy { $0.mergedCount == 1 && $0.mergedLocationIds?.count == 1 })
    }
}
