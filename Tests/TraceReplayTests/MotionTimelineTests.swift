import Foundation
import Testing

@testable import TraceReplay

/// The motion sensor of `+motion`, read off hand-made paths whose walking and standing are known.
@Suite struct MotionTimelineTests {
    /// Stand 100 s, walk north at 1.4 m/s for 100 s, stand 200 s; a point every 10 s (times from 1,000,000 s).
    let path: Trace = {
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 100, by: 10) { pts.append((t, 0)) }
        for t in stride(from: 110.0, through: 200, by: 10) { pts.append((t, 1.4 * (t - 100))) }
        for t in stride(from: 210.0, through: 400, by: 10) { pts.append((t, 140)) }
        return Hand.trace(pts)
    }()

    func walking(_ t: Double, latency: Double = 0) -> Bool {
        MotionTimeline(path).isWalking(at: 1_000_000 + t, latency: latency)
    }

    @Test func walkingIsTheMeanPositionMovingOverHalfAMinute() {
        #expect(!walking(50) && !walking(300), "standing")
        // At 110 s the last 10 s average 7 m north of the standing point (100 and 110 s), 30 s before 0 m; at 120 s 21 m.
        #expect(!walking(110) && walking(120))
        #expect(walking(160))
        // At 220 s the last 10 s average 140 m, 30 s before (180 and 190 s) 119 m; at 230 s 140 m against 133 m.
        #expect(walking(220) && !walking(230))
    }

    @Test func theSensorLagsBehindThePerson() {
        #expect(!walking(130, latency: 20) && walking(140, latency: 20))
        #expect(walking(240, latency: 20) && !walking(250, latency: 20))
    }

    @Test func nothingIsKnownOutsideThePathOrAcrossAGap() {
        #expect(!walking(-100) && !walking(10), "before the path, or with less than the window behind")
        // Two segments: the walk's middle is missing (140–170 s), so no window there.
        var gapped = path
        let fixes = gapped.segments[0]
        gapped.segments = [fixes.filter { $0.time < 1_000_140 }, fixes.filter { $0.time > 1_000_170 }]
        let sensor = MotionTimeline(gapped)
        #expect(sensor.isWalking(at: 1_000_130, latency: 0) && !sensor.isWalking(at: 1_000_190, latency: 0))
    }
}
