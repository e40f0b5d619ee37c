import Foundation
import Geo

/// What a phone knows while a GPS logger is silent.
///
/// A GPS-only logger (GeoLife's) mostly falls silent indoors, exactly where its bearer stays; a phone does not — it
/// goes on positioning itself from Wi-Fi access points and cell towers, coarsely and less often. Replaying such a
/// trace as it is would leave the virtual phone blind at the very stays a card is for, which no phone is. So for a
/// recording gap whose two ends lie close together (the person stayed), the phone's OS and app get indoor positions
/// around where the logger last saw the person, with a Wi-Fi position's accuracy and cadence; a gap whose ends lie
/// far apart (underground, a tunnel, the logger off while moving) gives none. Ground truth does not change: it reads
/// the recorded path only.
///
/// The values were fixed before any replay on real people was looked at, and the study reports every result with
/// them (`typical`), without them (`off`) and with the pessimistic ones:
/// - Wi-Fi positioning's accuracy: Zandbergen (2009), "Accuracy of iPhone Locations: A Comparison of Assisted GPS,
///   WiFi and Cellular Positioning", *Transactions in GIS* 13(s1), 5–25, measured a median error of 74 m for Wi-Fi
///   positions (8 m A-GPS, 600 m cellular) on the iPhone 3G; Android documents Wi-Fi and cell positioning
///   (`PRIORITY_BALANCED_POWER_ACCURACY`) as "about 100 meters" (block level). Today's phones do better than 2009's
///   indoors, so `typical` draws a reported accuracy of 20–75 m (the phone model's Wi-Fi source up to Zandbergen's
///   median) and `pessimistic` 75–150 m;
/// - cadence: a still phone's OS positions itself about once a minute while an app asks (`typical`: one position every
///   60 s) and less often when nothing does (`pessimistic`: every 180 s, the model's fence check of a still iPhone);
/// - "close together": the ends lie within 100 m, the distance threshold of the staypoint detection the study places
///   its stores with (trackintel's `generate_staypoints` default, after Li et al. 2008); a gap shorter than 120 s is
///   a logger's normal hiccup, not a silence.
/// The error is drawn as the fix model's (`errorCorrelationSeconds`), so repeated indoor positions do not average a
/// Wi-Fi bias away.
public enum GapFill: String, Codable, Sendable, Hashable, CaseIterable {
    case off, typical, pessimistic

    /// A gap shorter than this is not a silence.
    static let minGapSeconds = 120.0
    /// The gap's two ends lie within this: the person stayed.
    static let stayMeters = 100.0

    var intervalSeconds: Double { self == .pessimistic ? 180 : 60 }
    var accuracyMeters: ClosedRange<Double> { self == .pessimistic ? 75...150 : 20...75 }

    /// One silent stretch: where the person stayed (the logger's last fix before it) and when.
    struct Stay: Sendable, Hashable {
        var from: Double
        var to: Double
        var latitude: Double
        var longitude: Double
    }

    /// The gaps of `trace` (within and between segments) whose ends lie within `stayMeters`, longer than
    /// `minGapSeconds`. Independent of the setting: the motion sensor knows a stay whether or not positions come.
    static func stays(in trace: Trace) -> [Stay] {
        var out: [Stay] = []
        var previous: TraceFix?
        for segment in trace.segments {
            for fix in segment {
                if let p = previous, fix.time - p.time > minGapSeconds,
                    Sphere.distance(lat1: p.latitude, lon1: p.longitude, lat2: fix.latitude, lon2: fix.longitude) <= stayMeters
                {
                    out.append(Stay(from: p.time, to: fix.time, latitude: p.latitude, longitude: p.longitude))
                }
                previous = fix
            }
        }
        return out
    }

    /// The times of the indoor positions within `stay` (none at its ends, where the logger has fixes).
    func times(in stay: Stay) -> [Double] {
        guard self != .off else { return [] }
        return Array(stride(from: stay.from + intervalSeconds, to: stay.to, by: intervalSeconds))
    }
}
