import Foundation
import Geo
import LocationStore

/// A real store visit: the true trace stayed within the store's radius plus fix accuracy for the minimum dwell.
package struct Visit: Sendable, Hashable, Codable {
    package var locationId: String
    package var networkId: String
    package var name: String
    package var lat: Double
    package var lon: Double
    package var arrival: Double
    package var departure: Double
    /// The path was seen outside the footprint after the visit; false when the recording stopped while inside, so
    /// a later visit may be the same stay resumed after a recording gap.
    package var seenLeaving: Bool = true
}

/// The trace crossed a store's circle without staying long enough for a visit.
package struct PassThrough: Sendable, Hashable, Codable {
    package var locationId: String
    package var networkId: String
    package var time: Double
}

/// Finds visits and pass-throughs on the true trace (not the noisy fixes).
package enum GroundTruth {
    package static func compute(_ trace: Trace, stores: [CandidateStore], model: GroundTruthModel) -> (visits: [Visit], passThroughs: [PassThrough]) {
        var visits: [Visit] = []
        var passes: [PassThrough] = []
        for segment in trace.segments {
            let units = segment.map { UnitVector(latitude: $0.latitude, longitude: $0.longitude) }
            for store in stores {
                let r = store.radiusMeters
                var runStart: Int?
                var runEnd = 0
                func close() {
                    guard let s = runStart else { return }
                    let loc = store.location
                    if segment[runEnd].time - segment[s].time >= model.minDwellSeconds {
                        visits.append(
                            Visit(
                                locationId: loc.id, networkId: loc.networkId, name: loc.name, lat: loc.coordinate.latitude,
                                lon: loc.coordinate.longitude, arrival: segment[s].time, departure: segment[runEnd].time,
                                seenLeaving: runEnd < segment.count - 1))
                    } else {
                        passes.append(PassThrough(locationId: loc.id, networkId: loc.networkId, time: segment[s].time))
                    }
                    runStart = nil
                }
                for i in segment.indices {
                    let acc = segment[i].accuracy ?? model.nominalAccuracyMeters
                    let inside = units[i].dot(store.unit) >= UnitVector.cosOf(meters: r + acc)
                    if inside {
                        if runStart == nil { runStart = i }
                        runEnd = i
                    } else {
                        close()
                        // A chord between two outside fixes can still cut the circle (fast movement, sparse fixes).
                        if i > 0, units[i - 1].dot(store.unit) < UnitVector.cosOf(meters: r + acc),
                            chordDistance(units[i - 1], units[i], store.unit) <= r
                        {
                            passes.append(
                                PassThrough(
                                    locationId: store.location.id, networkId: store.location.networkId,
                                    time: (segment[i - 1].time + segment[i].time) / 2))
                        }
                    }
                }
                close()
            }
        }
        visits.sort { ($0.arrival, $0.locationId) < ($1.arrival, $1.locationId) }
        passes.sort { ($0.time, $0.locationId) < ($1.time, $1.locationId) }
        return (visits, passes)
    }

    /// Closest approach (metres) of the great-circle chord a→b to c, in a local tangent plane (chords are short).
    static func chordDistance(_ a: UnitVector, _ b: UnitVector, _ c: UnitVector) -> Double {
        let ab = (b.x - a.x, b.y - a.y, b.z - a.z)
        let ac = (c.x - a.x, c.y - a.y, c.z - a.z)
        let len2 = ab.0 * ab.0 + ab.1 * ab.1 + ab.2 * ab.2
        guard len2 > 0 else { return a.meters(to: c) }
        let t = max(0, min(1, (ac.0 * ab.0 + ac.1 * ab.1 + ac.2 * ab.2) / len2))
        let p = (a.x + ab.0 * t, a.y + ab.1 * t, a.z + ab.2 * t)
        let d = ((p.0 - c.x) * (p.0 - c.x) + (p.1 - c.y) * (p.1 - c.y) + (p.2 - c.z) * (p.2 - c.z)).squareRoot()
        return d * Sphere.earthRadiusMeters
    }
}
