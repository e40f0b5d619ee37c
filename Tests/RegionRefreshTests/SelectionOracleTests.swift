import Foundation
import Geo
import LocationStore
import OnCueContract
import SyntheticData
import TestSupport
import Testing

@testable import RegionRefresh

/// Built once and shared by the tests of this file.
struct OracleFixture: Sendable {
    let locations: [Location]
    let networks: [Network]
    let index: LocationIndex

    init(locations: [Location], networks: [Network]) {
        self.locations = locations
        self.networks = networks
        self.index = LocationIndex.build(locations: locations, networks: networks)
    }
}

let syntheticFixture: OracleFixture = {
    let spec = SyntheticLocations(count: 100_000, seed: 42, networkCount: 150, clusterCount: 400)
    return OracleFixture(locations: withOpeningHours(Array(spec)), networks: spec.networks)
}()

/// OpenStreetMap `opening_hours` values given to most of a fixture's locations (a few not understood, treated as open),
/// so that requests with a local time rank closed stores after open ones.
let fixtureOpeningHours: [String?] = [
    nil, nil, "Mo-Fr 09:00-17:00", "Mo-Sa 08:00-22:00; Su 10:00-18:00", "24/7", "Mo-Su 07:00-23:00",
    "Tu-Th 11:00-14:00,17:00-22:00", "Fr-Sa 20:00-04:00", "Mo-Fr 10:00-19:00; PH off", "off", "Mo-Fr 06:30-09:15 unknown",
    "Jan-Mar Mo 08:00-09:00", "Mo-Fr 08:00-20:00; Sa 09:00-14:00 || \"by appointment\"",
]

func withOpeningHours(_ locations: [Location]) -> [Location] {
    locations.map { l in
        var l = l
        // FNV-1a of the id: the same hours for a location on every run.
        let hash = l.id.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        l.openingHours = fixtureOpeningHours[Int(hash % UInt64(fixtureOpeningHours.count))]
        return l
    }
}

let realFixture: Result<OracleFixture, any Error> = Result {
    let (locations, networks) = try realChainLocations()
    return OracleFixture(locations: locations, networks: networks)
}

/// Random requests over a fixture, exercising every optional field.
func randomParameters(_ rng: inout SeededRandom, fixture: OracleFixture) -> RefreshParameters {
    let near = fixture.locations[Int.random(in: 0..<fixture.locations.count, using: &rng)].coordinate
    let center =
        Double.random(in: 0..<1, using: &rng) < 0.9
        ? Sphere.destination(from: near, meters: .random(in: 0...20_000, using: &rng), bearing: .random(in: 0..<360, using: &rng))
        : Coordinate(uncheckedLatitude: .random(in: -60...70, using: &rng), longitude: .random(in: -180...180, using: &rng))
    var cards: [String] = []
    for _ in 0..<Int.random(in: 0...3, using: &rng) {
        // Bias towards big networks, as real wallets are.
        let k = min(fixture.networks.count - 1, Int(pow(Double.random(in: 0..<1, using: &rng), 3) * Double(fixture.networks.count)))
        cards.append(fixture.networks[k].id)
    }
    var visits: [String: Int] = [:]
    if Bool.random(using: &rng), let first = cards.first { visits[first] = Int.random(in: 0...30, using: &rng) }
    if Bool.random(using: &rng) {
        visits[fixture.networks[Int.random(in: 0..<fixture.networks.count, using: &rng)].id] = Int.random(in: 1...10, using: &rng)
    }
    let maxRegions = [1, 2, 5, 20, 20, 20, 50, 100][Int.random(in: 0..<8, using: &rng)]
    return RefreshParameters(
        center: center, accuracyMeters: Bool.random(using: &rng) ? .random(in: 0...100, using: &rng) : nil,
        radiusMeters: [5_000.0, 50_000, 50_000, 200_000][Int.random(in: 0..<4, using: &rng)],
        cardNetworks: cards, maxRegions: maxRegions, networkVisits: visits,
        localTime: Bool.random(using: &rng)
            ? LocalWallClock(weekday: .random(in: 0..<7, using: &rng), minuteOfDay: .random(in: 0..<1440, using: &rng)) : nil,
        includeOtherNetworks: Double.random(in: 0..<1, using: &rng) < 0.8,
        reserveRefreshRegion: Double.random(in: 0..<1, using: &rng) < 0.3,
        explain: Double.random(in: 0..<1, using: &rng) < 0.2)
}

func checkAgainstOracle(_ fixture: OracleFixture, seed: UInt64, queries: Int) {
    let engine = RegionRefreshEngine(index: fixture.index)
    let oracle = ReferenceSelection(index: fixture.index, locations: fixture.locations, networks: fixture.networks)
    var rng = SeededRandom(seed: seed)
    let now = Date(timeIntervalSince1970: 1_763_807_400)
    var nonEmpty = 0
    for q in 0..<queries {
        let p = randomParameters(&rng, fixture: fixture)
        let selection = try! engine.select(p, now: now)
        let response = selection.response()
        // The server writes from the selection, the CLI and the simulator from the response. Both go through the same
        // `Region` values today; this keeps a later shortcut on either side from drifting from the other.
        #expect(selection.wireJSON() == response.wireJSON(), "wire JSON, query \(q)")
        // A client reads the server's fast writer with the contract's Codable: the same response.
        #expect((try? JSONDecoder().decode(RegionRefreshResponse.self, from: Data(selection.wireJSON()))) == response, "Codable, query \(q)")
        #expect(selection.regionCount == response.regions.count)
        let expected = oracle.select(p)
        let locationRegions = response.regions.filter { $0.kind == .location }
        let got = locationRegions.map { $0.id.contains("#") ? String($0.id.prefix { $0 != "#" }) + "#" : $0.id }
        #expect(got == expected.ids, "query \(q) seed \(seed): \(p)")
        let gotMerged = locationRegions.filter { !$0.id.contains("#") }.map { $0.mergedLocationIds ?? [] }
        #expect(gotMerged == expected.merged, "merged ids, query \(q)")
        #expect(response.regions.count <= p.maxRegions)
        #expect(response.regions.map(\.priority) == Array(stride(from: 1, through: response.regions.count, by: 1)))
        let config = engine.configuration
        let expectedRefresh = max(config.refreshFloorMeters, min(expected.refreshDistance, config.refreshCeilingMeters)).rounded(.down)
        #expect(abs(response.refreshAfterMeters - expectedRefresh) <= 1, "refresh_after_meters, query \(q)")
        #expect(response.coverageGuaranteed == (min(expected.refreshDistance, config.refreshCeilingMeters) >= config.refreshFloorMeters))
        if p.reserveRefreshRegion {
            #expect(response.regions.last?.kind == .refresh && response.regions.last?.radiusMeters == response.refreshAfterMeters)
        }
        if !got.isEmpty { nonEmpty += 1 }
    }
    #expect(nonEmpty > queries / 2, "most queries should return regions")
}

@Suite(.cpuHeavy) struct SelectionOracleTests {
    @Test(arguments: 0..<2)
    func syntheticHundredThousand(part: Int) {
        checkAgainstOracle(syntheticFixture, seed: 1_000 + UInt64(part), queries: TestScale.cases(120))
    }

    @Test(.needsSharedDatasets, arguments: 0..<2)
    func realChains(part: Int) throws {
        let fixture = try realFixture.get()
        #expect(fixture.locations.count > 14_000)
        checkAgainstOracle(fixture, seed: 2_000 + UInt64(part), queries: TestScale.cases(150))
    }
}
