import Foundation
import Testing

@testable import RefreshServer

/// The reloader's decisions, event by event: coalesced rebuilds, who each one answers, the first load's backoff, the
/// store lost and found, the listener's reconnects. No store, no socket, no sleep.
@Suite("The index reloader's state machine")
struct ReloadStateMachineTests {
    typealias Machine = ReloadStateMachine
    static let t0 = Date(timeIntervalSince1970: 1_900_000_000)

    static func installed(_ version: Int64?, tracked: Int64 = 1) -> Machine.Event {
        .rebuildInstalled(.init(indexVersion: version, trackedVersion: tracked, changesApplied: 0))
    }

    /// A machine whose first index (version 5) is serving.
    static func loaded() -> Machine {
        var machine = Machine()
        _ = machine.handle(.started, at: t0)
        _ = machine.handle(installed(5), at: t0)
        return machine
    }

    @Test func theFirstLoadIsRetriedWithABackoffWhileTheStoreCannotBeReached() {
        var machine = Machine()
        #expect(machine.handle(.started, at: Self.t0) == [.rebuild(covering: 0)])
        var waits: [Duration] = []
        for i in 0..<8 {
            let actions = machine.handle(.rebuildFailed(unreachable: true, message: "down"), at: Self.t0 + Double(i))
            guard case .loadAgain(let wait)? = actions.first else {
                Issue.record("\(actions)")
                return
            }
            waits.append(wait)
            #expect(machine.handle(.loadDue, at: Self.t0) == [.rebuild(covering: 0)])
        }
        #expect(waits == [0.5, 1, 2, 4, 8, 16, 30, 30].map { Duration.milliseconds(Int64($0 * 1_000)) })
        // Unreachable since the first failure, not the last.
        #expect(machine.state.unreachableSince == Self.t0)
        #expect(machine.state.lastError == "down")
        #expect(machine.handle(Self.installed(7), at: Self.t0 + 60) == [.answer(upTo: 0)])
        #expect(machine.state.unreachableSince == nil)
        #expect(machine.state.builtAt == Self.t0 + 60)
        #expect(machine.isLoaded)
    }

    @Test func aFirstLoadThatFailsOnItsDataStopsTheStart() {
        var machine = Machine()
        _ = machine.handle(.started, at: Self.t0)
        #expect(machine.handle(.rebuildFailed(unreachable: false, message: "bad schema"), at: Self.t0) == [.failStartup("bad schema")])
    }

    @Test func asksDuringTheFirstLoadAreAnsweredByTheRebuildAfterIt() {
        var machine = Machine()
        _ = machine.handle(.started, at: Self.t0)
        #expect(machine.handle(.askedForRebuild, at: Self.t0) == [])
        #expect(machine.asked == 1)
        #expect(machine.handle(Self.installed(5), at: Self.t0) == [.answer(upTo: 0), .rebuild(covering: 1)])
        #expect(machine.handle(Self.installed(5), at: Self.t0) == [.answer(upTo: 1)])
    }

    @Test func aBurstOfAsksWhileARebuildRunsCostsOneMoreRebuild() {
        var machine = Self.loaded()
        #expect(machine.handle(.askedForRebuild, at: Self.t0) == [.rebuild(covering: 1)])
        for _ in 0..<10 { #expect(machine.handle(.askedForRebuild, at: Self.t0) == []) }
        #expect(machine.handle(Self.installed(6), at: Self.t0) == [.answer(upTo: 1), .rebuild(covering: 11)])
        #expect(machine.handle(Self.installed(7), at: Self.t0) == [.answer(upTo: 11)])
    }

    @Test func anAnnouncedVersionRebuildsOnlyWhenNewerThanTheIndex() {
        var machine = Self.loaded()
        #expect(machine.handle(.announced(version: 5), at: Self.t0) == [])
        #expect(machine.handle(.announced(version: 4), at: Self.t0) == [])
        #expect(machine.handle(.announced(version: 9), at: Self.t0) == [.rebuild(covering: 0)])
        #expect(machine.state.knownVersion == 9)
    }

    @Test func aStoreFilesChangeVersionRebuildsWhenItDiffersFromTheIndexs() {
        var machine = Machine()
        _ = machine.handle(.started, at: Self.t0)
        _ = machine.handle(Self.installed(nil, tracked: 3), at: Self.t0)
        #expect(machine.handle(.trackedVersionRead(3), at: Self.t0) == [])
        #expect(machine.handle(.trackedVersionRead(4), at: Self.t0) == [.rebuild(covering: 0)])
    }

    @Test func aFailedRebuildKeepsTheOldIndexAndRetriesAtTheNextAsk() {
        var machine = Self.loaded()
        _ = machine.handle(.askedForRebuild, at: Self.t0)
        #expect(machine.handle(.rebuildFailed(unreachable: true, message: "cut"), at: Self.t0 + 1) == [])
        #expect(machine.state.indexVersion == 5)
        #expect(machine.state.unreachableSince == Self.t0 + 1)
        // An ask that came during the failed rebuild is not lost.
        _ = machine.handle(.askedForRebuild, at: Self.t0)
        _ = machine.handle(.askedForRebuild, at: Self.t0)
        #expect(machine.handle(.rebuildFailed(unreachable: true, message: "cut"), at: Self.t0 + 2) == [.rebuild(covering: 3)])
    }

    @Test func aPollTellsWhetherTheStoreAnswers() {
        var machine = Self.loaded()
        _ = machine.handle(.storeLost(message: "timeout"), at: Self.t0 + 5)
        _ = machine.handle(.storeLost(message: "refused"), at: Self.t0 + 9)
        #expect(machine.state.unreachableSince == Self.t0 + 5)
        #expect(machine.state.lastError == "refused")
        _ = machine.handle(.storeReached, at: Self.t0 + 10)
        #expect(machine.state.unreachableSince == nil)
        #expect(machine.state.lastError == nil)
    }

    @Test func theListenerReconnectsWithABackoffThatALongHoldStartsOver() {
        var machine = Self.loaded()
        var waits: [Machine.Action] = []
        for _ in 0..<4 { waits += machine.handle(.listenEnded(heldFor: .seconds(1)), at: Self.t0) }
        #expect(
            waits == [
                .listenAgain(after: .milliseconds(500)), .listenAgain(after: .seconds(1)), .listenAgain(after: .seconds(2)),
                .listenAgain(after: .seconds(4)),
            ])
        #expect(machine.handle(.listenEnded(heldFor: .seconds(31)), at: Self.t0) == [.listenAgain(after: .milliseconds(500))])
    }
}
