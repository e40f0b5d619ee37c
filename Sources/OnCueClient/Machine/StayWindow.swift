import Geo

/// The app's own fixes over the last `gps_confirm_seconds` while it follows a store, and the test that tells a stay
/// from a walk-by on them.
///
/// One fix at a time cannot: indoors a phone's fixes are sparse and scattered by tens of metres, so "every fix within
/// the footprint" is broken by the first stray one and the card comes minutes late, while a walk-by's fixes are
/// frequent and tight. The window is judged as a whole instead, the way stay-point detection does: its fixes, averaged
/// by their accuracy, must sit at the store, and the person must not have moved through — the average of the window's
/// earlier half and of its later half must lie closer together than a walk would carry them, allowing for the
/// halves' own accuracy (so scattered indoor fixes are not read as movement, and tight outdoor ones are).
public struct StayWindow: Sendable, Codable {
    public struct Sample: Sendable, Codable {
        public var time: Double
        public var position: UnitVector
        public var accuracy: Double

        public init(time: Double, position: UnitVector, accuracy: Double) {
            self.time = time
            self.position = position
            self.accuracy = accuracy
        }
    }

    /// Slower than this over the window is staying; a slow walk is about 1 m/s.
    public static let stayingSpeedMetersPerSecond = 0.5

    public private(set) var samples: [Sample] = []

    public init() {}

    /// Keeps the fixes of the last `window` seconds and the one before them, so that sparse fixes still span it —
    /// unless that one is older than another window: across a long gap it says nothing of this stay.
    ///
    /// `keepingSince`: fixes from that moment on are kept however old (the app's GPS has followed without a pause
    /// since, and the motion sensor said the person stood all along: every fix then is evidence of this one stay).
    public mutating func add(_ sample: Sample, window: Double, keepingSince: Double? = nil) {
        samples.append(sample)
        let cutoff = min(sample.time - window, keepingSince ?? .infinity)
        guard var first = samples.firstIndex(where: { $0.time >= cutoff }) else { return }
        if first > 0 && samples[first - 1].time >= cutoff - window { first -= 1 }
        if first > 0 { samples.removeFirst(first) }
    }

    public mutating func clear() { samples.removeAll() }

    /// The accuracy-weighted mean of some samples and the accuracy of that mean (1/√Σ 1/accuracy²).
    public static func mean(_ samples: ArraySlice<Sample>) -> (position: UnitVector, accuracy: Double)? {
        guard !samples.isEmpty else { return nil }
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var weights = 0.0
        for s in samples {
            let w = 1 / max(s.accuracy * s.accuracy, 1)
            x += s.position.x * w
            y += s.position.y * w
            z += s.position.z * w
            weights += w
        }
        return (UnitVector(normalizing: x, y, z), (1 / weights).squareRoot())
    }

    /// Where the person stayed over the window ending at `now`, or nil if the fixes cannot say (GPS on for less than
    /// the window, or its fixes, with the one before it, spanning less than it — indoors they come every 15–60 s) or
    /// show movement.
    /// The fixes are split at the middle of their span; a walk carries the person between the halves' mean times.
    public func stay(now: Double, window: Double, followedSince: Double) -> (position: UnitVector, accuracy: Double)? {
        guard followedSince <= now - window, let first = samples.first, let last = samples.last, last.time - first.time >= window
        else { return nil }
        let split = (first.time + last.time) / 2
        let boundary = samples.firstIndex { $0.time >= split } ?? samples.count
        guard let early = Self.mean(samples[..<boundary]), let late = Self.mean(samples[boundary...]), let all = Self.mean(samples[...])
        else { return nil }
        let apart = min(Self.meanTime(samples[boundary...]) - Self.meanTime(samples[..<boundary]), window)
        let walked = early.position.meters(to: late.position)
        let allowed = max(
            apart * Self.stayingSpeedMetersPerSecond, 2 * (early.accuracy * early.accuracy + late.accuracy * late.accuracy).squareRoot())
        return walked <= allowed ? all : nil
    }

    /// Why `stay` found none: too few fixes for the window yet, or fixes that moved.
    public func pendingHold(now: Double, window: Double, followedSince: Double) -> ClientNote.StayHold {
        guard followedSince <= now - window, let first = samples.first, let last = samples.last, last.time - first.time >= window
        else { return .fewFixes }
        return .moving
    }

    static func meanTime(_ samples: ArraySlice<Sample>) -> Double {
        samples.reduce(0) { $0 + $1.time } / Double(samples.count)
    }
}
