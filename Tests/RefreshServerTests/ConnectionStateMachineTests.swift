import Testing

@testable import RefreshServer

/// The connection's rules, event by event: no socket, no timer, no sleep. What each rule is for is said on
/// `ConnectionDeadlineHandler`; here each is checked as the actions it yields.
@Suite("The connection's state machine")
struct ConnectionStateMachineTests {
    static var limits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.headTimeout = .seconds(10)
        limits.bodyTimeout = .seconds(30)
        limits.uploadTimeout = .seconds(900)
        limits.idleTimeout = .seconds(60)
        limits.uploadMinBytesPerSecond = 100
        limits.uploadRateWindow = .seconds(10)
        limits.shutdownTimeout = .seconds(15)
        return limits
    }

    typealias Machine = ConnectionStateMachine

    @Test func theFirstHeadHasItsDeadlineFromTheStart() {
        var machine = Machine(limits: Self.limits)
        #expect(machine.handle(.added(active: true)) == [.arm(.head, after: .seconds(10))])
        // A channel that became active later gets it then, once.
        var late = Machine(limits: Self.limits)
        #expect(late.handle(.added(active: false)) == [])
        #expect(late.handle(.becameActive) == [.arm(.head, after: .seconds(10))])
        #expect(late.handle(.becameActive) == [])
    }

    @Test func aLateHeadIsAnswered408() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        #expect(machine.handle(.deadlinePassed(.head)) == [.countTimeout(.head), .answerTimeout])
        // A timer that fires after its deadline was replaced does nothing.
        #expect(machine.handle(.deadlinePassed(.head)) == [])
    }

    @Test func aRequestRunsNoDeadlineWhileTheServerAnswersAndAnIdleOneAfter() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        #expect(machine.handle(.head(isUpload: false)) == [.firstHeadArrived, .arm(.body, after: .seconds(30))])
        #expect(machine.handle(.bodyChunk(bytes: 10)) == [])
        #expect(machine.handle(.requestEnded) == [.disarm])
        #expect(machine.handle(.responseHead(final: true)) == [])
        #expect(machine.handle(.responseEnded) == [.writeEnd, .arm(.idle, after: .seconds(60)), .markIdle])
        // The next request: busy again, and not its first head.
        #expect(machine.handle(.head(isUpload: false)) == [.markBusy, .arm(.body, after: .seconds(30))])
        #expect(!machine.awaitingFirstHead)
    }

    @Test func anIdleConnectionIsClosedSilentlyAtItsDeadlineOrWhenTheRosterAsks() {
        var machine = Machine(limits: Self.limits)
        Self.answerOne(&machine)
        #expect(machine.handle(.deadlinePassed(.idle)) == [.countTimeout(.idle), .close])
        var evicted = Machine(limits: Self.limits)
        Self.answerOne(&evicted)
        #expect(evicted.handle(.evictionAsked) == [.countEviction, .close])
        // A request that began before the roster's ask reached this connection keeps it.
        var busy = Machine(limits: Self.limits)
        Self.answerOne(&busy)
        _ = busy.handle(.head(isUpload: false))
        #expect(busy.handle(.evictionAsked) == [])
    }

    @Test func aLateBodyFailsTheRoutesReadAndClosesSoonAfter() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        _ = machine.handle(.head(isUpload: false))
        #expect(machine.handle(.deadlinePassed(.body)) == [.countTimeout(.body), .failBody(.body), .arm(.shutdown, after: .seconds(2))])
        // The route's 408 says close, and the connection closes after it.
        #expect(machine.handle(.responseHead(final: true)) == [.sayClose])
        #expect(machine.handle(.responseEnded) == [.flushAndClose])
    }

    @Test func aResponseBeforeTheBodyEndsClosesTheConnectionAfterIt() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        _ = machine.handle(.head(isUpload: false))
        // 100 Continue asks for the body: not an answer.
        #expect(machine.handle(.responseHead(final: false)) == [])
        #expect(machine.handle(.responseHead(final: true)) == [.sayClose])
        #expect(machine.handle(.responseEnded) == [.disarm, .flushAndClose])
    }

    @Test func pipelinedRequestsGoIdleOnlyAfterTheLastAnswer() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        for _ in 0..<2 {
            _ = machine.handle(.head(isUpload: false))
            _ = machine.handle(.requestEnded)
        }
        #expect(machine.handle(.responseEnded) == [.writeEnd])
        #expect(machine.handle(.responseEnded) == [.writeEnd, .arm(.idle, after: .seconds(60)), .markIdle])
    }

    @Test func anUploadHasItsLongDeadlineAndARateFloor() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        #expect(
            machine.handle(.head(isUpload: true)) == [.firstHeadArrived, .arm(.body, after: .seconds(900)), .checkRate(after: .seconds(10))])
        // 1,000 bytes in the window is the floor (100 B/s × 10 s): checked again.
        _ = machine.handle(.bodyChunk(bytes: 1_000))
        #expect(machine.handle(.rateCheckDue) == [.checkRate(after: .seconds(10))])
        // The next window counts from zero: 999 bytes is a trickle, cut as a late body is.
        _ = machine.handle(.bodyChunk(bytes: 999))
        #expect(
            machine.handle(.rateCheckDue) == [.disarm, .countTimeout(.rate), .failBody(.rate), .arm(.shutdown, after: .seconds(2))])
        // An upload that ended stops its check.
        var done = Machine(limits: Self.limits)
        _ = done.handle(.head(isUpload: true))
        #expect(done.handle(.requestEnded) == [.disarm, .stopRateCheck])
        #expect(done.handle(.rateCheckDue) == [])
    }

    @Test func withNoFloorAnUploadIsNotRateChecked() {
        var limits = Self.limits
        limits.uploadMinBytesPerSecond = 0
        var machine = Machine(limits: limits)
        #expect(machine.handle(.head(isUpload: true)) == [.firstHeadArrived, .arm(.body, after: .seconds(900))])
    }

    @Test func atQuiesceEveryResponseSaysCloseAndTheShutdownDeadlineRuns() {
        var machine = Machine(limits: Self.limits)
        _ = machine.handle(.added(active: true))
        _ = machine.handle(.head(isUpload: false))
        _ = machine.handle(.requestEnded)
        #expect(machine.handle(.quiesce) == [.armShutdown(after: .seconds(15))])
        #expect(machine.handle(.quiesce) == [])
        #expect(machine.handle(.responseHead(final: true)) == [.sayClose])
        #expect(machine.handle(.responseEnded) == [.flushAndClose])
        #expect(machine.handle(.shutdownDeadlinePassed) == [.countTimeout(.shutdown), .close])
    }

    /// One request answered: the connection is idle.
    static func answerOne(_ machine: inout Machine) {
        _ = machine.handle(.added(active: true))
        _ = machine.handle(.head(isUpload: false))
        _ = machine.handle(.requestEnded)
        _ = machine.handle(.responseEnded)
    }
}
