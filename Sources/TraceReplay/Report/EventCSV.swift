import Foundation

/// The per-event CSV: `strategy,time,kind,location,network,card,distance_m,detail`, RFC 4180 quoting. Each
/// strategy's card moments are written beside its events, with their outcome and the reason.
package enum EventCSV {
    package static func render(_ run: TraceRun) -> String {
        var out = "strategy,time,kind,location,network,card,distance_m,detail\n"
        for r in run.allRuns {
            var events = r.events
            for o in r.outcomes {
                let m = o.moment
                events.append(
                    ReplayEvent(
                        time: m.arrival, kind: .visit, location: m.locationIds.joined(separator: " "), network: m.networkId,
                        distance: 0, detail: String(format: "card moment of %.0f s", m.departure - m.arrival)))
                if let time = o.cardTime {
                    events.append(
                        ReplayEvent(
                            time: time, kind: .momentCaught, location: o.notifiedLocationId ?? "", network: m.networkId,
                            detail: "\(o.status.rawValue): \(o.detail)"))
                } else {
                    events.append(
                        ReplayEvent(
                            time: m.departure, kind: .momentMissed, location: m.locationIds.joined(separator: " "), network: m.networkId,
                            detail: "\(o.miss?.rawValue ?? "missed"): \(o.detail)"))
                }
            }
            for e in events.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }).map(\.element) {
                out +=
                    [
                        r.strategy.name, TraceTime.format(e.time), e.kind.rawValue, e.location, e.network, e.card,
                        e.distance < 0 ? "" : String(format: "%.1f", e.distance), e.detail,
                    ].map(quote).joined(separator: ",") + "\n"
            }
        }
        return out
    }

    static func quote(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
