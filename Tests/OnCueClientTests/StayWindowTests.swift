import Foundation
import Geo
import OnCueClient
import Testing

/// The `+gps` stay test on hand-made fix streams: what it must tell apart is known from how each stream was made.
@Suite struct StayWindowTests {
    let store = UnitVector(latitude: 60.17, longitude: 24.94)
    let window = 60.0

    /// A fix `north` and `east` metres from the store.
    func sample(_ time: Double, north: Double, east: Double = 0, accuracy: Double) -> StayWindow.Sample {
        let lat = 60.17 + north / 111_195
        let lon = 24.94 + east / (111_195 * cos(60.17 * .pi / 180))
        return StayWindow.Sample(time: time, position: UnitVector(latitude: lat, longitude: lon), accuracy: accuracy)
    }

    /// Feeds the samples in order and returns the times at which the window showed a stay.
    func stays(_ samples: [StayWindow.Sample], followedSince: Double = 0) -> [(time: Double, metersFromStore: Double)] {
        var w = StayWindow()
        var found: [(Double, Double)] = []
        for s in samples {
            w.add(s, window: window)
            if let stay = w.stay(now: s.time, window: window, followedSince: followedSince) {
                found.append((s.time, stay.position.meters(to: store)))
            }
        }
        return found
    }

    @Test(arguments: [1.0, 1.4, 2.0])
    func aWalkByIsNeverAStay(speed: Double) {
        // Straight past the store's door, a tight fix every second from 150 m before it to 150 m after.
        let samples = (0...Int(300 / speed)).map { (i: Int) -> StayWindow.Sample in
            sample(Double(i), north: -150 + speed * Double(i), accuracy: 8)
        }
        #expect(stays(samples).isEmpty)
    }

    @Test func aSlowBrowseAlongTheShopFrontIsNotAStay() {
        // 0.8 m/s, fixes every 3 s with ±6 m of scatter: still 24 m between the halves' means.
        let samples = (0...100).map { (i: Int) -> StayWindow.Sample in
            let north: Double = -120 + 2.4 * Double(i)
            let east: Double = i % 2 == 0 ? 6 : -6
            return sample(Double(i * 3), north: north, east: east, accuracy: 10)
        }
        #expect(stays(samples).isEmpty)
    }

    @Test func sparseScatteredIndoorFixesAreAStay() throws {
        // In the shop for 5 minutes: a fix every 20 s, each 30 m off in a different direction with a 40 m accuracy —
        // no single fix within the 25 m footprint plus 10 m, yet the person never moved.
        let offsets: [(Double, Double)] = [(30, 0), (0, 30), (-30, 0), (0, -30)]
        let samples = (0...15).map { (i: Int) -> StayWindow.Sample in
            sample(Double(i * 20), north: offsets[i % 4].0, east: offsets[i % 4].1, accuracy: 40)
        }
        let found = stays(samples)
        let first = try #require(found.first)
        #expect(first.time == 60, "as soon as the fixes cover the window")
        #expect(found.allSatisfy { $0.metersFromStore < 25 }, "the mean of the scatter is the shop")
    }

    @Test func aStrayFixDoesNotUndoAStay() throws {
        // Tight fixes every 5 s at the store, one of them 60 m off: the window still says stay, at the store.
        var samples = (0...24).map { (i: Int) -> StayWindow.Sample in sample(Double(i * 5), north: i % 2 == 0 ? 3 : -3, accuracy: 8) }
        samples[13] = sample(65, north: 0, east: 60, accuracy: 8)
        let found = stays(samples)
        #expect(found.map(\.time) == Array(stride(from: 60.0, through: 120, by: 5)))
        #expect(found.allSatisfy { $0.metersFromStore < 12 })
    }

    @Test func theWindowMustBeCoveredByFixes() {
        let still = (0...30).map { (i: Int) -> StayWindow.Sample in sample(Double(i * 5), north: 0, accuracy: 8) }
        #expect(stays(still, followedSince: 50).map(\.time).first == 110, "GPS on at 50 s: a stay can show at 110 s at the earliest")
        // No fix from 60 to 95 s: the window keeps the last fix before it, so the fixes either side of the gap still
        // span it and show the same place.
        let times = stays(still.filter { $0.time < 60 || $0.time >= 100 }).map(\.time)
        #expect(times == Array(stride(from: 100.0, through: 150, by: 5)))
        // Fixes spanning less than the window cannot say, however many there are.
        let burst = (0...20).map { (i: Int) -> StayWindow.Sample in sample(100 + Double(i), north: 0, accuracy: 8) }
        #expect(stays(burst).isEmpty, "20 s of fixes after GPS came on at 0 s")
    }

    @Test func aFixFromBeforeALongGapSaysNothing() {
        // Standing 40 m north until 0 s, no fix for 130 s, then a walk south past the door at 1.4 m/s: the fix from
        // before the gap is older than another window, so it does not turn the walk into a stay.
        var samples = (0...10).map { (i: Int) -> StayWindow.Sample in sample(Double(i - 10), north: 40, accuracy: 8) }
        samples += (130...230).map { (i: Int) -> StayWindow.Sample in sample(Double(i), north: 40 - 1.4 * Double(i - 130), accuracy: 8) }
        #expect(stays(samples, followedSince: -10).isEmpty)
    }

    @Test func keepingSinceAStillMomentAveragesTheWholeStay() throws {
        // Standing 30 m north (beside the store), a fix every 20 s with alternating ±24 m scatter along the north
        // axis: each 60 s window holds 5 of them (with the one before it) and its mean swings between 25 and 35 m from
        // the store; kept since 0 s, the mean of all of them settles at 30 m, and its accuracy shrinks with every fix.
        let samples = (0...15).map { (i: Int) -> StayWindow.Sample in
            sample(Double(i * 20), north: 30 + (i % 2 == 0 ? 24 : -24), accuracy: 30)
        }
        var windowed = StayWindow()
        var kept = StayWindow()
        var windowedMeans: [Double] = []
        var keptMeans: [(meters: Double, accuracy: Double)] = []
        for s in samples {
            windowed.add(s, window: window)
            kept.add(s, window: window, keepingSince: 0)
            if let w = windowed.stay(now: s.time, window: window, followedSince: 0) { windowedMeans.append(w.position.meters(to: store)) }
            if let k = kept.stay(now: s.time, window: window, followedSince: 0) {
                keptMeans.append((k.position.meters(to: store), k.accuracy))
            }
        }
        #expect(kept.samples.count == samples.count, "every fix since 0 s is kept")
        #expect(windowed.samples.count <= 5, "the window keeps its own fixes and the one before")
        #expect((windowedMeans.max() ?? 0) - (windowedMeans.min() ?? 0) > 9, "one window's mean swings with the draw")
        let last = try #require(keptMeans.last)
        #expect(abs(last.meters - 30) < 4, "the whole stay's mean is where the person stood")
        #expect(last.accuracy < keptMeans[0].accuracy / 1.9, "and sharper than the first window's")
    }

    @Test func arrivingAndStoppingIsAStayOnceTheWindowIsStill() throws {
        // Walk in at 1.4 m/s, stop at the store at t = 100 and stay: the stay shows within the window after arrival.
        var samples = (0...100).map { (i: Int) -> StayWindow.Sample in sample(Double(i), north: -140 + 1.4 * Double(i), accuracy: 8) }
        samples += (101...300).map { (i: Int) -> StayWindow.Sample in sample(Double(i), north: 0, accuracy: 8) }
        let first = try #require(stays(samples).first)
        #expect(first.time > 100 && first.time <= 100 + window)
    }
}
