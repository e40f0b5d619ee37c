import Foundation
import Gazetteer
import Geo
import LocationStore
import OnCueContract
import SyntheticData
import TestSupport
import Testing

@testable import RegionRefresh

/// Hand-built layouts for the radius tiers, merging, venue splitting and tier ordering.
@Suite(.cpuHeavy) struct PolicyTests {
    let origin = Coordinate(uncheckedLatitude: 45.0, longitude: -93.0)

    func at(_ meters: Double, _ bearing: Double) -> Coordinate { Sphere.destination(from: origin, meters: meters, bearing: bearing) }

    func location(_ network: String, _ ext: String, _ c: Coordinate, radius: Double? = nil, venue: Double? = nil) -> Location {
        Location(networkId: network, externalId: ext, name: "\(network) \(ext)", coordinate: c, radiusMeters: radius, venueRadiusMeters: venue)
    }

    func radius(of id: String, in index: LocationIndex) -> (Double, RadiusPolicy.Rule, Int) {
        let i = (0..<index.count).first { index.id($0) == id }!
        return (Double(index.radius[i]), index.rule[i], Int(index.density[i]))
    }

    @Test func storeNeighboursRefineTheRadiusWithinThePlacesTier() {
        let p = RadiusPolicy.standard
        // The index keeps the density to the person per km².
        let place = PopulatedPlaces.shared.density(latitude: origin.latitude, longitude: origin.longitude).rounded()
        let alone = p.radius(explicit: nil, networkDefault: nil, isLargeArea: false, venueRadius: nil, placeDensity: place, neighbors: 0)
        // The same store alone, with 10 neighbours within 1 km, and with 30.
        var measured: [(Double, RadiusPolicy.Rule, Int)] = []
        for count in [0, 10, 30] {
            var locations = [location("a", "store", origin)]
            for k in 0..<count {
                locations.append(location("b", "n\(k)", Sphere.destination(from: origin, meters: 100 + Double(k) * 25, bearing: Double(k) * 12)))
            }
            let index = LocationIndex.build(locations: locations, networks: [Network(id: "a", name: "A"), Network(id: "b", name: "B")])
            measured.append(radius(of: "loc_a_store", in: index))
        }
        #expect(measured.map(\.2) == [0, 10, 30])
        #expect(measured.allSatisfy { $0.1 == alone.rule }, "neighbours never move a store across tiers")
        #expect(abs(measured[0].0 - alone.meters) < 0.01)
        let range = alone.rule == .dense ? p.dense : alone.rule == .suburban ? p.suburban : p.rural
        for (i, count) in [10, 30].enumerated() {
            let expected = max(
                range.lowerBound, alone.meters - p.storeShare * Double(count) / Double(p.storeSaturation) * (range.upperBound - range.lowerBound))
            #expect(abs(measured[i + 1].0 - expected) < 0.01, "\(count) neighbours: \(measured[i + 1].0) m against \(expected) m")
        }
    }

    @Test func densityMatchesBruteForce() {
        let spec = SyntheticLocations(count: 3_000, seed: 5, networkCount: 5, clusterCount: 3)
        let locations = Array(spec)
        let index = LocationIndex.build(locations: locations, networks: spec.networks)
        var slot: [String: Int] = [:]
        for i in 0..<index.count { slot[index.id(i)] = i }
        let cap = RadiusPolicy.standard.densityCountCap
        for a in locations {
            var n = 0
            for b in locations where b.id != a.id && Sphere.distance(a.coordinate, b.coordinate) <= 1_000 { n += 1 }
            let got = Int(index.density[slot[a.id]!])
            #expect(min(got, cap) == min(n, cap), "\(a.id)")
        }
    }

    @Test func explicitAndNetworkRadiusWin() {
        let nets = [Network(id: "x", name: "X", defaultRadiusMeters: 250), Network(id: "y", name: "Y", isLargeArea: true, defaultRadiusMeters: 700)]
        let index = LocationIndex.build(
            locations: [
                location("x", "1", origin, radius: 42), location("x", "2", at(5_000, 0)),
                location("y", "3", at(9_000, 0), venue: 1_800),
            ], networks: nets)
        #expect(radius(of: "loc_x_1", in: index).0 == 42 && radius(of: "loc_x_1", in: index).1 == .explicit)
        #expect(radius(of: "loc_x_2", in: index).0 == 250 && radius(of: "loc_x_2", in: index).1 == .networkDefault)
        #expect(radius(of: "loc_y_3", in: index).0 == 700)
    }

    @Test func largeAreaBySize() {
        let nets = [Network(id: "park", name: "Parks", category: "theme-park", isLargeArea: true)]
        let index = LocationIndex.build(
            locations: [
                location("park", "small", origin, venue: 100), location("park", "mid", at(20_000, 0), venue: 1_200),
                location("park", "none", at(40_000, 0)),
            ], networks: nets)
        #expect(radius(of: "loc_park_small", in: index).0 == 500)
        #expect(radius(of: "loc_park_mid", in: index).0 == 1_200)
        #expect(radius(of: "loc_park_none", in: index).0 == RadiusPolicy.standard.largeAreaDefault)
    }

    @Test func venueLargerThanOneCircleIsSplitAndCovered() throws {
        let nets = [Network(id: "park", name: "Parks", isLargeArea: true)]
        let index = LocationIndex.build(locations: [location("park", "huge", origin, venue: 3_000)], networks: nets)
        let engine = RegionRefreshEngine(index: index)
        let response = try engine.refresh(RefreshParameters(center: at(10_000, 45), cardNetworks: ["park"]), now: Date())
        #expect(response.regions.count == 7)
        #expect(Set(response.regions.map(\.id)).count == 7 && response.regions.allSatisfy { $0.id.hasPrefix("loc_park_huge") })
        #expect(response.regions.allSatisfy { $0.radiusMeters <= RadiusPolicy.standard.largeArea.upperBound })
        var rng = SeededRandom(seed: 9)
        for _ in 0..<5_000 {
            let p = Sphere.destination(
                from: origin, meters: 3_000 * Double.random(in: 0...1, using: &rng).squareRoot(), bearing: .random(in: 0..<360, using: &rng))
            #expect(response.regions.contains { Sphere.distance(p, Coordinate(uncheckedLatitude: $0.lat, longitude: $0.lon)) <= $0.radiusMeters })
        }
        // With fewer slots, the parts nearest the phone are kept.
        let three = try engine.refresh(RefreshParameters(center: at(10_000, 45), cardNetworks: ["park"], maxRegions: 3), now: Date())
        #expect(three.regions.count == 3 && three.regions[0].id == "loc_park_huge")
    }

    @Test func sameNetworkNearDuplicatesShareOneSlot() throws {
        let locations = [
            location("chain", "a", at(2_000, 0), radius: 150), location("chain", "b", at(2_005, 0), radius: 150),
            location("chain", "c", at(8_000, 0), radius: 150), location("other", "d", at(2_003, 0), radius: 150),
        ]
        let index = LocationIndex.build(locations: locations, networks: [Network(id: "chain", name: "C"), Network(id: "other", name: "O")])
        let response = try RegionRefreshEngine(index: index).refresh(RefreshParameters(center: origin, cardNetworks: ["chain"]), now: Date())
        #expect(response.regions.map(\.id) == ["loc_chain_a", "loc_chain_c", "loc_other_d"])
        #expect(response.regions[0].mergedLocationIds == ["loc_chain_b"])
        // The merged circle covers both original circles.
        let merged = response.regions[0]
        let mc = Coordinate(uncheckedLatitude: merged.lat, longitude: merged.lon)
        for l in locations.prefix(2) {
            #expect(Sphere.distance(mc, l.coordinate) + 150 <= merged.radiusMeters + 0.01)
        }
    }

    @Test func cardTierComesFirstWhateverTheBoosts() throws {
        var locations = [location("card", "far", at(30_000, 0))]
        for k in 0..<30 { locations.append(location("coffee", "\(k)", at(100 + Double(k) * 400, 90))) }
        let nets = [Network(id: "card", name: "Card", category: "library"), Network(id: "coffee", name: "Coffee", category: "coffee")]
        let engine = RegionRefreshEngine(index: LocationIndex.build(locations: locations, networks: nets))
        let p = RefreshParameters(
            center: origin, cardNetworks: ["card"], networkVisits: ["coffee": 100], localTime: LocalWallClock(weekday: 0, minuteOfDay: 8 * 60))
        let response = try engine.refresh(p, now: Date())
        #expect(response.regions.first?.id == "loc_card_far")
        #expect(response.regions.count == 20)
        let only = try engine.refresh(RefreshParameters(center: origin, cardNetworks: ["card"], includeOtherNetworks: false), now: Date())
        #expect(only.regions.map(\.id) == ["loc_card_far"])
    }

    @Test func boostsReorderWithinATier() throws {
        // Two grocery and two coffee stores; at 08:00 coffee is boosted 1.5×, at 18:00 grocery is.
        let locations = [location("g", "1", at(1_000, 0), radius: 100), location("c", "1", at(1_300, 90), radius: 100)]
        let nets = [Network(id: "g", name: "G", category: "grocery"), Network(id: "c", name: "C", category: "coffee")]
        let engine = RegionRefreshEngine(index: LocationIndex.build(locations: locations, networks: nets))
        let morning = try engine.refresh(
            RefreshParameters(center: origin, localTime: LocalWallClock(weekday: 0, minuteOfDay: 8 * 60), explain: true), now: Date())
        #expect(morning.regions.map(\.id) == ["loc_c_1", "loc_g_1"])
        #expect(morning.regions[0].explain?.timeOfDayBoost == 1.5)
        let evening = try engine.refresh(RefreshParameters(center: origin, localTime: LocalWallClock(weekday: 0, minuteOfDay: 18 * 60)), now: Date())
        #expect(evening.regions.map(\.id) == ["loc_g_1", "loc_c_1"])
        let visited = try engine.refresh(RefreshParameters(center: origin, networkVisits: ["c": 20]), now: Date())
        #expect(visited.regions.map(\.id) == ["loc_c_1", "loc_g_1"])
    }

    @Test func aLargeRegionThePhoneStandsInIsNeverDropped() throws {
        var locations = [location("airport", "1", at(1_200, 0), radius: 1_500)]
        for k in 0..<40 { locations.append(location("shop", "\(k)", at(50 + Double(k) * 20, 180), radius: 30)) }
        let engine = RegionRefreshEngine(
            index: LocationIndex.build(locations: locations, networks: [Network(id: "airport", name: "A"), Network(id: "shop", name: "S")]))
        let response = try engine.refresh(RefreshParameters(center: origin, cardNetworks: ["airport", "shop"], maxRegions: 5), now: Date())
        #expect(response.regions.first?.id == "loc_airport_1")
    }

    @Test func sparseAreasReturnFewerAndNeverMore() throws {
        let engine = RegionRefreshEngine(
            index: LocationIndex.build(locations: [location("a", "1", at(10_000, 0))], networks: [Network(id: "a", name: "A")]))
        let r = try engine.refresh(RefreshParameters(center: origin, cardNetworks: ["a"]), now: Date())
        #expect(r.regions.count == 1)
        let none = try engine.refresh(RefreshParameters(center: Coordinate(uncheckedLatitude: -45, longitude: 120), cardNetworks: ["a"]), now: Date())
        #expect(none.regions.isEmpty && none.coverageGuaranteed && none.refreshAfterMeters == 50_000)
    }

    @Test func refreshDistanceIsTheNearestUnmonitoredBoundary() throws {
        // Three card stores; with max_regions 2 the third (at 5 km, radius 500) is unmonitored: D = 4500 − accuracy.
        let locations = [
            location("a", "1", at(1_000, 0), radius: 500), location("a", "2", at(2_000, 90), radius: 500),
            location("a", "3", at(5_000, 180), radius: 500),
        ]
        let engine = RegionRefreshEngine(index: LocationIndex.build(locations: locations, networks: [Network(id: "a", name: "A")]))
        let r = try engine.refresh(RefreshParameters(center: origin, accuracyMeters: 20, cardNetworks: ["a"], maxRegions: 2), now: Date())
        #expect(r.regions.map(\.id) == ["loc_a_1", "loc_a_2"])
        // D from an independent great-circle distance; the engine's chord arithmetic may round across a metre.
        let expected = (Sphere.distance(origin, at(5_000, 180)) - 500 - 20).rounded(.down)
        #expect(abs(r.refreshAfterMeters - expected) <= 1)
        #expect(r.coverageGuaranteed)
        let bubble = try engine.refresh(
            RefreshParameters(center: origin, cardNetworks: ["a"], maxRegions: 2, reserveRefreshRegion: true), now: Date())
        #expect(bubble.regions.map(\.id) == ["loc_a_1", "oncue-refresh"])
        #expect(abs(bubble.regions[1].radiusMeters - (2_000 - 500)) <= 1)
        // Standing inside an unmonitored card region: no guarantee, the floor applies.
        let inside = try engine.refresh(
            RefreshParameters(center: at(5_000, 180), cardNetworks: ["a"], maxRegions: 1, reserveRefreshRegion: false), now: Date())
        #expect(inside.regions.count == 1)
        let crowded = [location("a", "1", origin, radius: 300), location("a", "2", at(10, 90), radius: 300), location("b", "x", at(20, 0))]
        let e2 = RegionRefreshEngine(
            index: LocationIndex.build(locations: crowded, networks: [Network(id: "a", name: "A"), Network(id: "b", name: "B")]))
        let r2 = try e2.refresh(RefreshParameters(center: origin, cardNetworks: ["a", "b"], maxRegions: 1), now: Date())
        // a/1 and a/2 merge into one region, so the one slot covers both; b/x is unmonitored and contains the phone.
        #expect(r2.regions.count == 1 && !r2.coverageGuaranteed && r2.refreshAfterMeters == 100)
    }
}
