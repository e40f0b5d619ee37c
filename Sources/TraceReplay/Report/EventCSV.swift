import Foundation

/// The per-event CSV: `strategy,time,kind,location,network,card,distance_m,detail`, RFC 4180 quoting.
public enum EventCSV {
    public static func render(_ run: TraceRun) -> String {
        var out = "strategy,time,kind,location,network,card,distance_m,detail\n"
        for r in run.runs + [run.oracle] {
            var events = r.events
            // Ground-truth rows make the file self-explanatory next to notifications.
            for o in r.outcomes {
                events.append(ReplayEvent(time: o.visit.arrival, kind: .visit, location: o.visit.locationId, network: o.visit.networkId,
                                          distance: 0, detail: String(format: "%.0f s", o.visit.departure - o.visit.arrival)))
                if let d = o.delay {
                    events.append(ReplayEvent(time: o.visit.arrival + d, kind: .visitCaught, location: o.visit.locationId, network: o.visit.networkId,
                                              detail: String(format: "delay %.0f s", d)))
                } else {
                    events.append(ReplayEvent(time: o.visit.departure, kind: .visitMissed, location: o.visit.locationId, network: o.visit.networkId,
                                              detail: o.wasMonitored ? "monitored, not detected" : "not monitored"))
                }
            }
            for e in events.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }).map(\.element) {
                out += [r.strategy.name, TraceTime.format(e.time), e.kind.rawValue, e.location, e.network, e.card,
                        e.distance < 0 ? "" : String(format: "%.1f", e.distance), e.detail].map(quote).joined(separator: ",") + "\n"
            }
        }
        return out
    }

    static func quote(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
