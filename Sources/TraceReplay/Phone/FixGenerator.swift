import Foundation
import Geo
import LocationStore

/// One fix as the phone's OS sees it: the trace position plus noise from its source, with the recorded position kept
/// for the app's own GPS fix and for event distances.
package struct PhoneFix: Sendable, Hashable {
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// The reported horizontal accuracy (metres).
    public var accuracy: Double
    /// Index into the scenario's fix sources.
    package var source: UInt8
    /// The trace's own position and accuracy (0 when the trace has none).
    package var trueLatitude: Double
    package var trueLongitude: Double
    package var traceAccuracy: Double
    /// Index of the trace segment the fix belongs to.
    public var segment: Int32
    var unit: UnitVector
    var trueUnit: UnitVector
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
        var out: [PhoneFix] = []
        out.reserveCapacity(trace.fixCount)
        var dropoutUntil = -Double.infinity
        // The error's unit-normal components, carried from fix to fix (AR(1) with the model's correlation time).
        var zNorth = 0.0
        var zEast = 0.0
        var previousTime: Double?
        for (s, segment) in trace.segments.enumerated() {
            for fix in segment {
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
                    let rho =
                        model.errorCorrelationSeconds > 0 && previousTime != nil
                        ? exp(-max(0, fix.time - previousTime!) / model.errorCorrelationSeconds) : 0
                    let keep = (1 - rho * rho).squareRoot()
                    zNorth = rho * zNorth + keep * rng.gaussian()
                    zEast = rho * zEast + keep * rng.gaussian()
                    if source.recorded {
                        accuracy = fix.accuracy ?? drawn
                    } else {
                        accuracy = max(accuracy, drawn)
                        lat += zNorth * drawn * sigmaPerAccuracy / Sphere.metersPerDegree
                        lon += zEast * drawn * sigmaPerAccuracy / (Sphere.metersPerDegree * max(0.01, cos(fix.latitude * .pi / 180)))
                        lat = min(90, max(-90, lat))
                        lon = Sphere.normalizeLongitude(lon)
                    }
                }
                previousTime = fix.time
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
}
