import Foundation
import Testing

@testable import TraceReplay

/// The OS rules of the virtual location manager, on hand-built fixes.
@Suite struct LocationManagerTests {
    func events(_ q: inout EventQueue) -> [(Double, String)] {
        var out: [(Double, String)] = []
        while let (t, e) = q.popDue(upTo: .infinity) {
            switch e {
            case .enter(let k): out.append((t, "enter \(k)"))
            case .exit(let k): out.append((t, "exit \(k)"))
            case .state(let k, let inside): out.append((t, "state \(k) \(inside.map(String.init) ?? "unknown")"))
            case .dwell(let k): out.append((t, "dwell \(k)"))
            default: out.append((t, "other"))
            }
        }
        return out
    }

    @Test func twentyFirstRegionFails() {
        let m = VirtualLocationManager(os: .ios, seed: 1)
        var q = EventQueue()
        let results = (0..<21).map {
            m.startMonitoring(Hand.region("r\($0)", north: Double($0) * 1000, radius: 100), key: "r\($0)", now: 0, queue: &q)
        }
        #expect(results.prefix(20).allSatisfy { $0 })
        #expect(results.last == false)
        #expect(m.monitoredCount == 20)
        m.stopMonitoring("r0")
        #expect(m.startMonitoring(Hand.region("again", north: 0, radius: 100), key: "again", now: 0, queue: &q))
    }

    /// iOS checking its fences at every fix, with a fixed 5 s delivery delay.
    var iosEveryFix: OSModel {
        var os = OSModel.ios
        os.detectionDelayMinSeconds = 5
        os.detectionDelayMaxSeconds = 5
        os.fenceCheckMovingSeconds = 0
        os.fenceCheckStationarySeconds = 0
        return os
    }

    @Test func noEntryForRegionAlreadyInsideUnlessStateRequested() {
        let m = VirtualLocationManager(os: .ios, seed: 1)
        var q = EventQueue()
        _ = m.process(Hand.fix(0, north: 0), queue: &q)
        #expect(m.startMonitoring(Hand.region("here", north: 10, radius: 150), key: "here", now: 0, queue: &q))
        for t in stride(from: 10.0, through: 600, by: 10) { _ = m.process(Hand.fix(t, north: 0), queue: &q) }
        #expect(events(&q).isEmpty, "iOS sends no entry for a region the phone was inside when monitoring began")
        m.requestState("here", now: 600, queue: &q)
        let e = events(&q)
        // The answer comes with the same delivery delay as an entry (iOS: 2-10 s).
        #expect(e.count == 1 && e[0].1 == "state here true")
        #expect(e.first.map { (602...610).contains($0.0) } == true)
    }

    @Test func stateAnswerNeedsTheCushion() {
        // R = 100 m: the cushion is min(200, 0.5 × 100) = 50 m. Inside within 50 m, outside beyond 150 m, unknown between.
        for (north, answer) in [(30.0, "true"), (80, "unknown"), (140, "unknown"), (200, "false")] {
            let m = VirtualLocationManager(os: iosEveryFix, seed: 1)
            var q = EventQueue()
            _ = m.process(Hand.fix(0, north: north), queue: &q)
            _ = m.startMonitoring(Hand.region("s", north: 0, radius: 100), key: "s", now: 0, queue: &q)
            m.requestState("s", now: 0, queue: &q)
            let e = events(&q)
            #expect(e.map(\.1) == ["state s \(answer)"], "at \(north) m")
            #expect(e.first?.0 == 5, "delivered with the entry's delay")
        }
    }

    @Test func fenceChecksFollowTheOSCadence() {
        var os = OSModel.ios
        os.dwellSeconds = 0
        var clock = FenceClock(os: os)
        var checks: [Double] = []
        // Walking 1.5 m/s for 5 min, then standing still for 15 min (fixes every 5 s).
        for i in 0...240 {
            let t = Double(i) * 5
            let fix = Hand.fix(t, north: min(t, 300) * 1.5)
            clock.observe(fix)
            if clock.isDue(t) {
                checks.append(t)
                clock.checked(fix, wakeUpBy: nil)
            }
        }
        // Every 30 s while walking; once the last minute shows no movement (at 360 s), every 180 s.
        #expect(checks.prefix(13) == [0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330, 360])
        #expect(Array(checks.dropFirst(13)) == [540, 720, 900, 1080])
        // A pending decision brings the next check forward.
        var pending = FenceClock(os: os)
        let f0 = Hand.fix(0, north: 0)
        pending.observe(f0)
        pending.checked(f0, wakeUpBy: 20)
        #expect(!pending.isDue(19) && pending.isDue(20))
    }

    @Test func cushionAndDwell() {
        let os = iosEveryFix
        let m = VirtualLocationManager(os: os, seed: 1)
        var q = EventQueue()
        _ = m.process(Hand.fix(0, north: 2_000), queue: &q)
        // R = 400 m: the cushion is min(200, 0.5 × 400) = 200 m, so the entry threshold is 200 m from the centre.
        _ = m.startMonitoring(Hand.region("s", north: 0, radius: 400), key: "s", now: 0, queue: &q)
        _ = m.process(Hand.fix(10, north: 300), queue: &q)  // inside the circle, not by the cushion
        _ = m.process(Hand.fix(20, north: 210), queue: &q)
        #expect(events(&q).isEmpty)
        _ = m.process(Hand.fix(30, north: 150), queue: &q)  // pending from t = 30
        _ = m.process(Hand.fix(45, north: 150), queue: &q)  // 15 s < 20 s dwell
        #expect(events(&q).isEmpty)
        _ = m.process(Hand.fix(50, north: 150), queue: &q)  // 20 s: fires, delivered 5 s later
        let entered = events(&q)
        #expect(entered.count == 1 && entered[0].0 == 55 && entered[0].1 == "enter s")
        // Exit is symmetric: 600 m (R + cushion) for 20 s.
        _ = m.process(Hand.fix(60, north: 590), queue: &q)
        _ = m.process(Hand.fix(70, north: 610), queue: &q)
        _ = m.process(Hand.fix(80, north: 300), queue: &q)  // back inside: resets the pending exit
        _ = m.process(Hand.fix(90, north: 700), queue: &q)
        _ = m.process(Hand.fix(100, north: 700), queue: &q)
        #expect(events(&q).isEmpty)
        _ = m.process(Hand.fix(110, north: 700), queue: &q)
        let exited = events(&q)
        #expect(exited.count == 1 && exited[0].0 == 115 && exited[0].1 == "exit s")
    }

    @Test func overlapFractionByHand() {
        #expect(accuracyOverlapFraction(distance: 0, accuracy: 50, fenceRadius: 100) == 1)
        #expect(accuracyOverlapFraction(distance: 150, accuracy: 50, fenceRadius: 100) == 0)
        // Accuracy circle larger than the fence, concentric: (r/a)².
        #expect(abs(accuracyOverlapFraction(distance: 0, accuracy: 200, fenceRadius: 100) - 0.25) < 1e-12)
        // Two unit circles one radius apart: lens area 2π/3 − √3/2.
        let lens = (2 * Double.pi / 3 - 3.0.squareRoot() / 2) / .pi
        #expect(abs(accuracyOverlapFraction(distance: 1, accuracy: 1, fenceRadius: 1) - lens) < 1e-12)
    }

    /// The distance (metres) at which a 50 m accuracy circle overlaps a 100 m fence by `fraction` (bisection on the tested function's
    /// monotonicity, checked against the hand values above).
    func distance(forOverlap fraction: Double) -> Double {
        var lo = 50.0
        var hi = 150.0
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if accuracyOverlapFraction(distance: mid, accuracy: 50, fenceRadius: 100) > fraction { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Android checking at every fix, without delivery delay.
    var androidEveryFix: OSModel {
        var os = OSModel.android
        os.detectionDelayMinSeconds = 0
        os.detectionDelayMaxSeconds = 0
        os.fenceCheckMovingSeconds = 0
        os.fenceCheckStationarySeconds = 0
        return os
    }

    @Test(arguments: [(0.85, 0.15), (0.75, 0.25)])
    func androidOverlapThresholds(entry: Double, exit: Double) {
        var os = androidEveryFix
        os.entryOverlap = entry
        os.exitOverlap = exit
        let m = VirtualLocationManager(os: os, seed: 1)
        var q = EventQueue()
        _ = m.process(Hand.fix(0, north: 1_000, accuracy: 50), queue: &q)
        _ = m.startMonitoring(Hand.region("f", north: 0, radius: 100), key: "f", now: 0, queue: &q)
        _ = m.process(Hand.fix(10, north: distance(forOverlap: entry - 0.02), accuracy: 50), queue: &q)
        #expect(events(&q).isEmpty, "just below the entry overlap: no alert")
        _ = m.process(Hand.fix(20, north: distance(forOverlap: entry + 0.02), accuracy: 50), queue: &q)
        #expect(events(&q).map(\.1) == ["enter f"])
        _ = m.process(Hand.fix(30, north: distance(forOverlap: exit + 0.02), accuracy: 50), queue: &q)
        #expect(events(&q).isEmpty, "between the thresholds: no alert")
        _ = m.process(Hand.fix(40, north: distance(forOverlap: exit - 0.02), accuracy: 50), queue: &q)
        #expect(events(&q).map(\.1) == ["exit f"])
    }

    @Test func androidInitialTriggerFiresAtTheNextCheck() {
        let m = VirtualLocationManager(os: androidEveryFix, seed: 1)
        var q = EventQueue()
        _ = m.process(Hand.fix(0, north: 0, accuracy: 10), queue: &q)
        _ = m.startMonitoring(Hand.region("f", north: 0, radius: 100), key: "f", now: 0, queue: &q)
        #expect(events(&q).isEmpty, "nothing until the OS looks again")
        _ = m.process(Hand.fix(10, north: 0, accuracy: 10), queue: &q)
        #expect(events(&q).map(\.1) == ["enter f"])
    }

    /// The overlap area by counting grid points (0.25 m) inside both circles: independent of the lens formula.
    func gridOverlap(distance d: Double, a: Double, r: Double) -> Double {
        let step = 0.25
        var count = 0
        var x = -a
        while x <= a {
            var y = -a
            while y <= a {
                if x * x + y * y <= a * a && (x - d) * (x - d) + y * y <= r * r { count += 1 }
                y += step
            }
            x += step
        }
        return Double(count) * step * step
    }

    @Test(arguments: [(10.0, 20.0, 30.0), (40, 20, 30), (5, 60, 30), (70, 60, 30), (45, 50, 50)])
    func overlapAreaMatchesGridCount(d: Double, a: Double, r: Double) {
        let lens = circleOverlapArea(distance: d, accuracy: a, fenceRadius: r)
        let grid = gridOverlap(distance: d, a: a, r: r)
        #expect(abs(lens - grid) <= 0.01 * .pi * min(a, r) * min(a, r), "d \(d), a \(a), r \(r): \(lens) vs \(grid)")
        #expect(abs(smallerCircleOverlapFraction(distance: d, accuracy: a, fenceRadius: r) - lens / (.pi * min(a, r) * min(a, r))) < 1e-12)
    }

    @Test func androidCoarseFixAroundASmallFenceUsesTheSmallerCircle() {
        // A 60 m fix centred on a 30 m fence: a quarter of the fix's own circle is inside, so "85 % of the accuracy
        // circle" could never enter; the fence itself is fully covered, which passes the coarse-fix 75 % rule.
        let m = VirtualLocationManager(os: androidEveryFix, seed: 1)
        var q = EventQueue()
        _ = m.process(Hand.fix(0, north: 500, accuracy: 60), queue: &q)
        _ = m.startMonitoring(Hand.region("f", north: 0, radius: 30), key: "f", now: 0, queue: &q)
        _ = m.process(Hand.fix(10, north: 500, accuracy: 60), queue: &q)
        #expect(events(&q).isEmpty)
        _ = m.process(Hand.fix(20, north: 0, accuracy: 60), queue: &q)
        #expect(events(&q).map(\.1) == ["enter f"])
        // Exit when at most 25 % of the fence is covered: at 80 m the 60 m circle covers only a sliver of it.
        #expect(smallerCircleOverlapFraction(distance: 80, accuracy: 60, fenceRadius: 30) < 0.25)
        _ = m.process(Hand.fix(30, north: 80, accuracy: 60), queue: &q)
        #expect(events(&q).map(\.1) == ["exit f"])
    }

    @Test func dwellTransitionNeedsTheLoiteringDelay() {
        var os = androidEveryFix
        os.loiteringDelaySeconds = 120
        let m = VirtualLocationManager(os: os, seed: 1)
        var q = EventQueue()
        _ = m.process(Hand.fix(0, north: 500, accuracy: 10), queue: &q)
        _ = m.startMonitoring(Hand.region("f", north: 0, radius: 100), key: "f", trigger: .dwell, now: 0, queue: &q)
        _ = m.process(Hand.fix(10, north: 500, accuracy: 10), queue: &q)
        // A walk-by: inside from 20 s to 100 s, then gone.
        for t in stride(from: 20.0, through: 100, by: 10) { _ = m.process(Hand.fix(t, north: 0, accuracy: 10), queue: &q) }
        for t in stride(from: 110.0, through: 300, by: 10) { _ = m.process(Hand.fix(t, north: 500, accuracy: 10), queue: &q) }
        #expect(events(&q).map(\.1) == ["exit f"], "no DWELL, and no ENTER for a DWELL fence")
        // A visit: inside from 310 s; DWELL at the first check 120 s after the entry.
        for t in stride(from: 310.0, through: 600, by: 10) { _ = m.process(Hand.fix(t, north: 0, accuracy: 10), queue: &q) }
        let e = events(&q)
        #expect(e.map(\.1) == ["dwell f"] && e.first?.0 == 430)
    }

    @Test func androidWakesPeriodicallyNotOnSignificantChanges() {
        var os = OSModel.android
        os.fenceCheckMovingSeconds = 0
        os.fenceCheckStationarySeconds = 0
        let m = VirtualLocationManager(os: os, seed: 1)
        var q = EventQueue()
        var wakes: [(Double, String)] = []
        // Driving 10 km north in an hour, a fix a minute.
        for minute in 0...60 {
            if let w = m.process(Hand.fix(Double(minute) * 60, north: Double(minute) * 170), queue: &q) {
                wakes.append((Double(minute) * 60, w.rawValue))
            }
        }
        #expect(wakes.map(\.1) == ["launch", "periodic_wake", "periodic_wake", "periodic_wake", "periodic_wake"])
        #expect(wakes.map(\.0) == [0, 900, 1_800, 2_700, 3_600])
    }

    @Test func significantChangeNeeds500mAnd5min() {
        let m = VirtualLocationManager(os: .ios, seed: 1)
        var q = EventQueue()
        var wakes: [Double] = []
        // Fast: 250 m per minute reaches 500 m at 2 min, but the 5 min floor holds it until 300 s (1250 m).
        for minute in 0...12 {
            if let w = m.process(Hand.fix(Double(minute) * 60, north: Double(minute) * 250), queue: &q), w != .launch {
                wakes.append(Double(minute) * 60)
            }
        }
        #expect(wakes == [300, 600])
        // Slow: 50 m per minute needs 10 min for 500 m.
        let slow = VirtualLocationManager(os: .ios, seed: 1)
        var slowWakes: [Double] = []
        for minute in 0...25 {
            if let w = slow.process(Hand.fix(Double(minute) * 60, north: Double(minute) * 50), queue: &q), w == .significantChange {
                slowWakes.append(Double(minute))
            }
        }
        #expect(slowWakes == [10, 20])
    }

    /// A person walks 300 m to a store and stays 10 minutes; iOS with its background positions (mostly Wi-Fi) watches
    /// a region of `radius` around the store. Returns, per seed, the seconds from arrival to the entry (nil: none).
    func entryDelays(radius: Double, seeds: ClosedRange<UInt64>) -> [Double?] {
        var pts: [(Double, Double)] = []
        for i in 0...300 { pts.append((Double(i), -300 + Double(i))) }  // arrive at t = 300
        for i in 1...120 { pts.append((300 + Double(i) * 5, 0)) }  // stay 10 min
        let trace = Hand.trace(pts)
        return seeds.map { seed -> Double? in
            let m = VirtualLocationManager(os: .ios, seed: seed)
            var q = EventQueue()
            var registered = false
            var entry: Double?
            for fix in FixGenerator.generate(trace, model: .phone, seed: seed) {
                _ = m.process(fix, queue: &q)
                if !registered { registered = m.startMonitoring(Hand.region("s", north: 0, radius: radius), key: "s", now: fix.time, queue: &q) }
                while let (t, e) = q.popDue(upTo: fix.time) { if case .enter = e, entry == nil { entry = t } }
            }
            return entry.map { $0 - 1_000_300 }
        }
    }

    @Test func regionsBelowTheReliableMinimumDetectLateOrNotAtAll() {
        let small = entryDelays(radius: 30, seeds: 1...40)
        let reliable = entryDelays(radius: 100, seeds: 1...40)
        let smallHits = small.compactMap { $0 }
        let reliableHits = reliable.compactMap { $0 }
        #expect(reliableHits.count >= 38, "a 100 m region around a 10-minute stay is found (\(reliableHits.count) of 40)")
        #expect(smallHits.count < reliableHits.count, "30 m: \(smallHits.count) of 40")
        let median = { (v: [Double]) in v.sorted()[v.count / 2] }
        #expect(
            smallHits.isEmpty || median(smallHits) > median(reliableHits),
            "30 m median \(smallHits.isEmpty ? "-" : String(median(smallHits))) s, 100 m \(median(reliableHits)) s after arrival")
    }

    @Test func responsivenessIsAFloorOnTheCheckPeriod() {
        var os = OSModel.android
        os.responsivenessSeconds = 300
        var clock = FenceClock(os: os)
        var checks: [Double] = []
        for i in 0...120 {
            let t = Double(i) * 10
            let fix = Hand.fix(t, north: t * 1.5)
            clock.observe(fix)
            if clock.isDue(t) {
                checks.append(t)
                clock.checked(fix, wakeUpBy: nil)
            }
        }
        #expect(checks == [0, 300, 600, 900, 1_200], "moving, yet every 300 s rather than 60 s")
    }
}
