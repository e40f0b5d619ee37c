import Foundation
import Geo
import LocationStore

/// One fix as the phone's OS sees it: the trace position plus noise from its source, with the recorded position kept
/// for the app's own GPS fix and for event distances.
package struct PhoneFix: Sendable, Hashable {
    package var time: Double
    package var latitude: Double
    package var longitude: Double
    /// The reported horizontal accuracy (metres).
    package var accuracy: Double
    /// Index into the scenario's fix sources.
    package var source: UInt8
    /// The trace's own position and accuracy (0 when the trace has none).
    package var trueLatitude: Double
    package var trueLongitude: Double
    package var traceAccuracy: Double
    /// Index of the trace segment the fix belongs to.
    package var segment: Int32
    var unit: UnitVector
    var trueUnit: UnitVector
    /// A position the phone had while the logger was silent (`GapFill`): the true position is where the person
    /// stayed, and the app's own fix indoors is the Wi-Fi position (`unit`), not a GPS one.
    var indoor = false

    /// Where the app's own fix (`requestLocation`, its GPS while following a store) puts the person.
    var appUnit: UnitVector { indoor ? unit : trueUnit }
}

/// Turns a trace into the OS's fix stream with the scenario's seeded noise and dropouts. The stream depends only on
/// (trace, fix model, seed), so every strategy of a comparison sees exactly the same fixes.
package enum FixGenerator {
    /// A 2-D Gaussian has 68 % of its mass within 1.515 σ, and reported accuracy is a 68 % radius.
    static let sigmaPerAccuracy = 1 / 1.515

    package static func generate(_ trace: Trace, model: FixModel, seed: UInt64) -> [PhoneFix] {
        var rng = SeededRandom(seed: seed)
        let total = model.sources.reduce(0) { $0 + max(0, $1.weight) }
        var cumulative: [Double] = []
        var sum = 0.0
        for s in model.sources {
            sum += max(0, s.weight)
            cumulative.append(total > 0 ? sum / total : 1)
        }
        let exact = model.sources.allSatisfy { $0.accuracyMaxMeters <= 0 && !$0.recorded }
        var stays = model.gapFill == .off ? [] : GapFill.stays(in: trace)[...]
        var out: [PhoneFix] = []
        out.reserveCapacity(trace.fixCount)
        var dropoutUntil = -Double.infinity
        var error = CorrelatedError(correlationSeconds: model.errorCorrelationSeconds)
        for (s, segment) in trace.segments.enumerated() {
            for fix in segment {
                // The silences before this fix: the phone's indoor positions where the person stayed.
                while let stay = stays.first, stay.to <= fix.time {
                    stays.removeFirst()
                    for time in model.gapFill.times(in: stay) {
                        out.append(indoor(stay, at: time, model: model, exact: exact, segment: s, error: &error, rng: &rng))
                    }
                }
                if model.dropoutProbability > 0 {
                    if fix.time < dropoutUntil { continue }
                    if Double.random(in: 0..<1, using: &rng) < model.dropoutProbability {
                        // Exponential length with the configured mean.
                        let u = Double.random(in: Double.ulpOfOne..<1, using: &rng)
                        dropoutUntil = fix.time - log(u) * model.dropoutMeanSeconds
                        continue
                    }
                }
                var lat = fix.latitude
                var lon = fix.longitude
                var accuracy = fix.accuracy ?? 0
                var sourceIndex = 0
                if !exact {
                    let u = Double.random(in: 0..<1, using: &rng)
                    sourceIndex = cumulative.firstIndex { u < $0 } ?? max(0, cumulative.count - 1)
                    let source = model.sources[sourceIndex]
                    let drawn =
                        source.accuracyMinMeters + (source.accuracyMaxMeters - source.accuracyMinMeters) * Double.random(in: 0..<1, using: &rng)
                    let (north, east) = error.next(at: fix.time, rng: &rng)
                    if source.recorded {
                        accuracy = fix.accuracy ?? drawn
                    } else {
                        accuracy = max(accuracy, drawn)
                        (lat, lon) = offset(lat, lon, north: north * drawn * sigmaPerAccuracy, east: east * drawn * sigmaPerAccuracy)
                    }
                }
                out.append(
                    PhoneFix(
                        time: fix.time, latitude: lat, longitude: lon, accuracy: accuracy, source: UInt8(sourceIndex),
                        trueLatitude: fix.latitude, trueLongitude: fix.longitude, traceAccuracy: fix.accuracy ?? 0,
                        segment: Int32(s), unit: UnitVector(latitude: lat, longitude: lon),
                        trueUnit: UnitVector(latitude: fix.latitude, longitude: fix.longitude)))
            }
        }
        return out
    }

    /// An indoor position during a silence (`GapFill`): Wi-Fi's accuracy and error around where the logger last saw
    /// the person. The app's own "GPS" fix indoors is this same position (a phone's fused location there, `appUnit`),
    /// so it carries the position's accuracy, not GPS's; the true position stays where the logger last saw them.
    /// Exact fixes (`ideal-os`) sit there too.
    private static func indoor(
        _ stay: GapFill.Stay, at time: Double, model: FixModel, exact: Bool, segment: Int, error: inout CorrelatedError,
        rng: inout SeededRandom
    ) -> PhoneFix {
        var lat = stay.latitude
        var lon = stay.longitude
        var accuracy = 0.0
        if !exact {
            let range = model.gapFill.accuracyMeters
            accuracy = range.lowerBound + (range.upperBound - range.lowerBound) * Double.random(in: 0..<1, using: &rng)
            let (north, east) = error.next(at: time, rng: &rng)
            (lat, lon) = offset(lat, lon, north: north * accuracy * sigmaPerAccuracy, east: east * accuracy * sigmaPerAccuracy)
        }
        return PhoneFix(
            time: time, latitude: lat, longitude: lon, accuracy: accuracy, source: indoorSource(model), trueLatitude: stay.latitude,
            trueLongitude: stay.longitude, traceAccuracy: accuracy, segment: Int32(segment), unit: UnitVector(latitude: lat, longitude: lon),
            trueUnit: UnitVector(latitude: stay.latitude, longitude: stay.longitude), indoor: true)
    }

    /// The source index indoor positions report: one past the model's own sources.
    static func indoorSource(_ model: FixModel) -> UInt8 { UInt8(min(254, model.sources.count)) }

    static func offset(_ lat: Double, _ lon: Double, north: Double, east: Double) -> (Double, Double) {
        let newLat = min(90, max(-90, lat + north / Sphere.metersPerDegree))
        let newLon = Sphere.normalizeLongitude(lon + east / (Sphere.metersPerDegree * max(0.01, cos(lat * .pi / 180))))
        return (newLat, newLon)
    }
}

/// A position error that persists: its unit-normal north and east components follow an AR(1) process with the
/// model's correlation time (independent draws would let repeated checks average a Wi-Fi fix's bias away).
struct CorrelatedError {
    let correlationSeconds: Double
    var north = 0.0
    var east = 0.0
    var previousTime: Double?

    init(correlationSeconds: Double) { self.correlationSeconds = correlationSeconds }

    mutating func next(at time: Double, rng: inout SeededRandom) -> (north: Double, east: Double) {
        let rho = correlationSeconds > 0 && previousTime != nil ? exp(-max(0, time - previousTime!) / correlationSeconds) : 0
        let keep = (1 - rho * rho).squareRoot()
        north = rho * north + keep * rng.gaussian()
        east = rho * east + keep * rng.gaussian()
        previousTime = time
        return (north, east)
    }
}
