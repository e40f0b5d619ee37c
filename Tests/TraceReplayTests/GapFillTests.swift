import Foundation
import Geo
import LocationStore
import OnCueClient
import Testing

@testable import TraceReplay

/// The phone during a GPS logger's silences (`GapFill`), on hand-made traces.
@Suite struct GapFillTests {
    /// Walk north at 1.5 m/s from 300 m south of the store; the logger's last fix is at the door (5 m south, 197 s),
    /// then nothing for 30 minutes, then 2 minutes at the store, then north away.
    let silentStay: Trace = {
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 196, by: 2) { pts.append((t, -300 + 1.5 * t)) }
        pts.append((197, -5))
        for t in stride(from: 1_997.0, through: 2_117, by: 2) { pts.append((t, 0)) }
        for t in stride(from: 2_119.0, through: 2_400, by: 2) { pts.append((t, 1.5 * (t - 2_117))) }
        return Hand.trace(pts)
    }()

    /// The same walk, but the 30 minutes' silence is a subway ride: the logger comes back 2 km north.
    let subway: Trace = {
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 196, by: 2) { pts.append((t, -300 + 1.5 * t)) }
        for t in stride(from: 1_997.0, through: 2_400, by: 2) { pts.append((t, 2_000 + 1.5 * (t - 1_997))) }
        return Hand.trace(pts)
    }()

    func scenario(_ fill: GapFill) throws -> Scenario {
        var s = try Scenario.profile("ios")
        s.network = .instant
        s.groundTruth.storeRadiusMeters = 25
        s.fixes.gapFill = fill
        return s
    }

    func run(_ trace: Trace, _ fill: GapFill, strategies: [String] = ["guaranteed+clamp+gps+motion"]) async throws -> TraceRun {
        let sc = try scenario(fill)
        let stores = [Hand.store("a", north: 0)]
        let catalog = StoreCatalog(locations: stores, storeRadiusMeters: 25)
        let context = ReplayContext(scenario: sc, wallet: Hand.wallet, catalog: catalog, refresher: BruteForceRefresher(locations: stores))
        return await ReplayRunner.run(trace, strategies: try strategies.map(Strategy.parse), context: context)
    }

    @Test func aStayInsideAGapIsSeenByIdealOSAtItsStart() async throws {
        let off = try await run(silentStay, .off)
        let typical = try await run(silentStay, .typical)
        #expect(off.moments.count == 1 && typical.moments == off.moments, "ground truth does not change")
        let arrival = try #require(off.moments.first).arrival
        // Without positions the OS cannot finish the entry it began at the door until the logger resumes.
        let late = try #require(off.idealOS.notifications.first).time - arrival
        let seen = try #require(typical.idealOS.notifications.first).time - arrival
        #expect(late > 1_700, "ideal-os without the model: \(late) s")
        #expect(seen < 300, "ideal-os with indoor positions: \(seen) s")
        #expect(typical.idealOS.metrics.served == 1)
    }

    @Test func aSubwayGapGivesNoPositions() throws {
        let gapStart = 1_000_000 + 196.0
        let gapEnd = 1_000_000 + 1_997.0
        for fill in GapFill.allCases {
            let fixes = FixGenerator.generate(subway, model: try scenario(fill).fixes, seed: 1)
            #expect(!fixes.contains { $0.time > gapStart && $0.time < gapEnd }, "\(fill)")
        }
        // A stay's silence gets the setting's cadence and accuracy; the recorded fixes are unchanged in number.
        for fill in [GapFill.typical, .pessimistic] {
            let fixes = FixGenerator.generate(silentStay, model: try scenario(fill).fixes, seed: 1)
            let indoor = fixes.filter { $0.time > 1_000_197 && $0.time < 1_001_997 }
            #expect(indoor.count == Int((1_800 / fill.intervalSeconds).rounded(.up)) - 1, "\(fill)")
            #expect(indoor.allSatisfy { fill.accuracyMeters.contains($0.accuracy) && $0.traceAccuracy == $0.accuracy })
            let door = UnitVector(latitude: Hand.point(north: -5).0, longitude: 0)
            #expect(indoor.allSatisfy { $0.unit.meters(to: door) < 4 * fill.accuracyMeters.upperBound })
        }
    }

    @Test func aColdStartWhileWalkingGivesNoCard() async throws {
        // The recording starts at the store's door as the person walks off at 1.3 m/s, its first 40 s a logger's
        // scatter around the door while it acquires (no visit: 40 s is under the 120 s a visit needs).
        var rng = SeededRandom(seed: 3)
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 40, by: 2) { pts.append((t, 8 * rng.gaussian())) }
        for t in stride(from: 42.0, through: 600, by: 2) { pts.append((t, 1.3 * (t - 40))) }
        let r = try await run(Hand.trace(pts), .typical)
        #expect(r.moments.isEmpty)
        #expect(r.runs[0].notifications.isEmpty, "cards: \(r.runs[0].notifications.map(\.time))")
    }
}
