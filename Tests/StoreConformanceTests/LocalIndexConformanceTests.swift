import Foundation
import Geo
import LocationStore
import OnCueContract
import RegionRefresh
import SyntheticData
import TestSupport
import Testing

/// A one-off answer (`oncue refresh`) reads only the locations a request's point can reach
/// (`RegionRefreshEngine.reload(for:from:)`); the server reads them all. Both must answer alike: the oracle is the
/// full build the server makes, asked the same request, byte for byte.
@Suite("An index of one place answers as the whole store's (SQLite and PostGIS)", .cpuHeavy)
struct LocalIndexConformanceTests {
    /// The change script's world (dense Manhattan, a suburb, open country; default radii, venues, uncertain points,
    /// opening hours), with regions far larger than any policy draws placed tens of kilometres out, and a pile-up.
    static func world() -> (ChangeScript, [Location]) {
        var script = ChangeScript(seed: 11, count: 1_500)
        var extra: [Location] = []
        for (i, centre) in ChangeScript.centres.enumerated() {
            for j in 0..<3 {
                let far = script.point(near: centre, within: 70_000)
                var l = Location(networkId: "beta", externalId: "far-\(i)-\(j)", name: "Far \(i)-\(j)", coordinate: far)
                if j == 0 { l.radiusMeters = script.uniform(8_000...20_000) }
                if j == 1 { l.positionUncertaintyMeters = script.uniform(3_000...9_000) }
                extra.append(l)
            }
            // Forty stores of one network on one spot.
            let spot = script.point(near: centre, within: 2_000)
            for k in 0..<40 {
                extra.append(Location(networkId: "drug", externalId: "pile-\(i)-\(k)", name: "Pile \(k)", coordinate: spot))
            }
        }
        return (script, extra)
    }

    @Test("random requests near and far: the same bytes as the full index", arguments: TestStore.kinds)
    func sameAnswers(kind: StoreKind) async throws {
        var (script, extra) = Self.world()
        try await TestStore.with(kind) { store, _ in
            try await IncrementalIndexConformanceTests.write(script, over: nil, into: store)
            _ = try await store.upsert(extra)
            let full = RegionRefreshEngine()
            try await full.reload(from: store)
            let local = RegionRefreshEngine()
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let networkIds = script.networks.keys.sorted()
            var compared = 0
            for q in 0..<60 {
                let centre = ChangeScript.centres[q % ChangeScript.centres.count]
                let phone = script.point(near: centre, within: [3_000, 20_000, 60_000][q % 3])
                let cards = Array(networkIds.shuffled(using: &script.random).prefix(Int.random(in: 0...2, using: &script.random)))
                let p = RefreshParameters(
                    center: phone, accuracyMeters: q % 4 == 0 ? script.uniform(5...2_000) : nil,
                    radiusMeters: [50_000, 5_000, 200_000, 1_000][q % 4], cardNetworks: cards, maxRegions: [20, 7, 100][q % 3],
                    networkVisits: cards.first.map { [$0: 3] } ?? [:],
                    localTime: q % 5 == 0 ? LocalWallClock(weekday: q % 7, minuteOfDay: (q * 131) % 1440) : nil,
                    includeOtherNetworks: q % 6 != 5, reserveRefreshRegion: q % 7 == 3, explain: q % 2 == 0,
                    minRadiusMeters: q % 9 == 4 ? 400 : nil)
                try await local.reload(for: p, from: store)
                let selection = try local.select(p, now: now)
                let expected = String(decoding: try full.select(p, now: now).wireJSON(), as: UTF8.self)
                // A selection that looked at many locations is answered again from the full index (the CLI does).
                if local.needsFullIndex(selection) { continue }
                compared += 1
                #expect(String(decoding: selection.wireJSON(), as: UTF8.self) == expected, "query \(q) at \(phone): \(p)")
                #expect((local.index?.count ?? 0) < full.index!.count || p.radiusMeters >= 200_000)
            }
            #expect(compared >= 50)
            #expect(try await store.largestStoredRadius() == extra.compactMap { $0.radiusMeters ?? $0.positionUncertaintyMeters }.max())
        }
    }
}
