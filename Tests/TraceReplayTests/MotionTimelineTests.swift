import Foundation
import Geo
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

    func walking(_ t: Double, latency: Double = 0, on trace: Trace? = nil) -> Bool {
        MotionTimeline(trace ?? path).isWalking(at: 1_000_000 + t, latency: latency)
    }

    @Test func walkingIsTheMedianPositionMovingOverAMinute() {
        #expect(!walking(90) && !walking(300), "standing")
        // At 120 s the last 30 s (90–120 s: 0, 0, 14, 28 m) have the median 7 m, the 30 s a minute before 0 m; at
        // 130 s the median is 21 m; at 140 s 35 m, past the 30 m a minute at 0.5 m/s allows.
        #expect(!walking(130) && walking(140))
        #expect(walking(160))
        // Stopped at 200 s (140 m): at 260 s the window a minute before (170–200 s) has the median 119 m, 21 m off;
        // at 250 s (160–190 s) 105 m, 35 m off.
        #expect(walking(250) && !walking(260))
    }

    @Test func theSensorLagsBehindThePerson() {
        #expect(!walking(150, latency: 20) && walking(160, latency: 20))
        #expect(walking(270, latency: 20) && !walking(280, latency: 20))
    }

    @Test func aRecordingsStartIsNotAStay() {
        // Less than the sensor's 90 s of path behind: it cannot have said "still" yet.
        #expect(walking(-100) && walking(10) && walking(80))
    }

    @Test func aStandingLoggersWanderIsNotAWalk() {
        // Half an hour standing with a logger fixing every 2 s, scattered by 12 m a side (σ) and throwing a 60 m
        // multipath fix every 30th time.
        var rng = SeededRandom(seed: 7)
        var fixes: [TraceFix] = []
        for i in 0..<900 {
            var north = 12 * rng.gaussian()
            let east = 12 * rng.gaussian()
            if i % 30 == 29 { north += 60 }
            let (lat, lon) = Hand.point(north: north, east: east)
            fixes.append(TraceFix(time: 1_000_000 + 2 * Double(i), latitude: lat, longitude: lon))
        }
        let trace = Trace(name: "jitter", segments: [fixes], report: TraceReport(file: "jitter", format: "test"))
        let sensor = MotionTimeline(trace)
        let walkingAt = stride(from: 100.0, to: 1_790, by: 5).filter { sensor.isWalking(at: 1_000_000 + $0, latency: 0) }
        #expect(walkingAt.isEmpty, "said walking at \(walkingAt.prefix(5))")
    }

    /// Stand at 0 m for 300 s, fall silent until 1,500 s, stand at `resumeNorth` until 1,800 s (a fix every 10 s).
    func silence(resumeNorth: Double) -> Trace {
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 300, by: 10) { pts.append((t, 0)) }
        for t in stride(from: 1_500.0, through: 1_800, by: 10) { pts.append((t, resumeNorth)) }
        return Hand.trace(pts)
    }

    @Test func aSilenceWhoseEndsLieCloseIsAStay() {
        let stay = silence(resumeNorth: 40)
        #expect(!walking(900, on: stay) && !walking(1_500, on: stay) && !walking(1_520, on: stay), "the person stood through it")
    }

    @Test func aSilenceWhoseEndsLieFarApartIsAJourney() {
        let subway = silence(resumeNorth: 2_000)
        #expect(walking(900, on: subway), "moving (underground) through the gap")
        #expect(walking(1_520, on: subway) && walking(1_580, on: subway), "the recording's restart is not a stay")
        #expect(!walking(1_600, on: subway), "90 s of standing after it is")
    }
}
