import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// The refresh distance D taken from the tier-1 collection (when `Prioritizer.collectionBoundsTheRest` says it may
/// be) against a search of the card networks' trees for every request, on the same random requests (visit and
/// time-of-day boosts, several card networks, accuracies, small and large radii).
@Suite(.cpuHeavy) struct RefreshDistanceShortcutTests {
    @Test func syntheticLocations() throws { try shortcutGivesWhatTheSearchGives("synthetic") }

    @Test(.needsSharedDatasets) func realChains() throws { try shortcutGivesWhatTheSearchGives("real") }

    func shortcutGivesWhatTheSearchGives(_ name: String) throws {
        let fixture = name == "synthetic" ? syntheticFixture : try realFixture.get()
        let configuration = EngineConfiguration()
        let fast = Prioritizer(index: fixture.index, configuration: configuration)
        var searching = Prioritizer(index: fixture.index, configuration: configuration)
        searching.usesCollectionBound = false
        var rng = SeededRandom(seed: 2026)
        let now = Date(timeIntervalSince1970: 1_763_807_400)
        var shortcuts = 0
        var shortcutsWithHours = 0
        for q in 0..<TestScale.cases(1_200) {
            var p = randomParameters(&rng, fixture: fixture)
            // Real chains are sparse: few regions asked for make full collections, where the shortcut may apply.
            if q % 2 == 0 { p.maxRegions = [1, 2, 3, 5][q / 2 % 4] }
            // Small radii put unmonitored card locations just outside the radius, which the shortcut must not miss.
            if q % 5 == 0 { p.radiusMeters = [500, 1_000, 3_000][q / 5 % 3] }
            // Most of the real set's networks are single library systems: hold the big chains' cards too.
            if name == "real" && q % 3 != 0 {
                p.cardNetworks = [["mcdonald-s"], ["chipotle", "costco"], ["target", "mcdonald-s"]][q % 3 == 1 ? q / 3 % 3 : 0]
            }
            let a = fast.select(p, now: now)
            let b = searching.select(p, now: now)
            #expect(!b.refreshDistanceFromCollection)
            if a.refreshDistanceFromCollection { shortcuts += 1 }
            if a.refreshDistanceFromCollection && p.localTime != nil { shortcutsWithHours += 1 }
            #expect(a.refreshAfterMeters == b.refreshAfterMeters, "query \(q): \(p)")
            #expect(a.coverageGuaranteed == b.coverageGuaranteed, "query \(q)")
        }
        // The requests must exercise the shortcut often enough for the comparison to mean something.
        #expect(shortcuts > 150, "the shortcut was taken \(shortcuts) times")
        // The synthetic stores have opening hours: with a local time, closed stores rank apart and the shortcut must
        // still hold.
        if name == "synthetic" { #expect(shortcutsWithHours > 50, "the shortcut was taken \(shortcutsWithHours) times with a local time") }
    }

    /// A big region just outside the request's radius is nearer its boundary than anything collected inside it:
    /// the collection cannot vouch for it, so D must come from a search.
    @Test func aLargeRegionJustOutsideTheRadiusBoundsD() throws {
        let origin = Coordinate(uncheckedLatitude: 45.0, longitude: -93.0)
        func at(_ meters: Double, _ bearing: Double) -> Coordinate { Sphere.destination(from: origin, meters: meters, bearing: bearing) }
        func card(_ ext: String, _ c: Coordinate, radius: Double) -> Location {
            Location(networkId: "card", externalId: ext, name: ext, coordinate: c, radiusMeters: radius)
        }
        // Inside 1 km: boundary distances 70, 270, 470, 870, 920 m. Outside it (1,100 m), one region of 1,000 m: 100 m.
        let locations = [
            card("a", at(100, 0), radius: 30), card("b", at(300, 90), radius: 30), card("c", at(500, 180), radius: 30),
            card("d", at(900, 270), radius: 30), card("e", at(950, 45), radius: 30), card("x", at(1_100, 135), radius: 1_000),
        ]
        let index = LocationIndex.build(locations: locations, networks: [Network(id: "card", name: "Card")])
        let prioritizer = Prioritizer(index: index, configuration: EngineConfiguration())
        let p = RefreshParameters(center: origin, radiusMeters: 1_000, cardNetworks: ["card"], maxRegions: 1)
        let selection = prioritizer.select(p, now: Date())
        #expect(selection.response().regions.map(\.name) == ["a"])
        #expect(!selection.refreshDistanceFromCollection)
        #expect(selection.refreshAfterMeters == 100)
    }
}
