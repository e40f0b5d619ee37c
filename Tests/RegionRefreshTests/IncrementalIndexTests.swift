import Foundation
import Geo
import LocationStore
import SyntheticData
import TestSupport
import Testing

@testable import RegionRefresh

/// An index brought up to date by changes (`LocationIndex.applying`) must answer exactly as one built from scratch at
/// the same state: random sequences of inserts, moves, deletes, network setting changes and network merges, checked
/// after every step on every answer (regions, order, radii, refresh distance, guarantee, explanations) at many points.
@Suite(.cpuHeavy) struct IncrementalIndexTests {
    @Test("random inserts, moves, deletes, network changes and merges: every answer equals a fresh build's", arguments: [1, 2, 3] as [UInt64])
    func differential(seed: UInt64) {
        var world = ChangeScript(seed: seed, count: 1_500)
        var incremental = world.build()
        for round in 0..<10 {
            let changes = world.step(operations: round % 3 == 2 ? 60 : Int.random(in: 1...12, using: &world.random))
            guard let next = incremental.applying(changes, limit: 100_000) else {
                Issue.record("a small change set was refused")
                return
            }
            incremental = next
            let fresh = world.build()
            let difference = world.firstDifference(incremental, fresh, queries: TestScale.cases(20))
            #expect(difference == nil, "round \(round): \(difference ?? "")")
            if difference != nil { return }
        }
        #expect(incremental.changesApplied > 0)
    }

    @Test("more changes than the limit ask for a full build; a full build has none applied")
    func limit() {
        var world = ChangeScript(seed: 9, count: 300)
        let index = world.build()
        let changes = world.step(operations: 40)
        #expect(index.applying(changes, limit: changes.count - 1) == nil)
        #expect(index.applying(changes, limit: changes.count)?.changesApplied == changes.count)
        #expect(index.changesApplied == 0)
    }
}
