import Foundation
import Geo
import LocationStore

/// A self-contained HTML page per trace: an SVG map (trace, stores, monitored regions over the run, notifications,
/// missed visits), an SVG timeline, the strategy table and the cleaning report. No scripts, no external files.
public enum HTMLReport {
    static let width = 900.0, height = 560.0, pad = 20.0

    public static func render(_ run: TraceRun, scenario: Scenario) -> String {
        let main = run.runs.first ?? run.oracle
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>oncue replay — \(esc(run.trace.name))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:960px}
            table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
            td:first-child,th:first-child{text-align:left}svg{border:1px solid #ddd;background:#fbfbf8}
            .legend span{margin-right:14px}.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-right:4px}
            </style></head><body>
            <h1>\(esc(run.trace.name))</h1>
            <p>Profile <b>\(esc(scenario.profile))</b>, seed \(scenario.seed), map strategy <b>\(esc(main.strategy.name))</b>.
            \(run.trace.fixCount) fixes in \(run.trace.segments.count) segment(s), \(run.phoneFixes) delivered by the OS,
            \(String(format: "%.2f", run.trace.activeSeconds / 3600)) h; \(run.stores.count) card stores within reach,
            \(run.visits.count) visits, \(run.passThroughs.count) pass-throughs.</p>

            """
        html += "<h2>Map</h2>\n" + map(run, main) + "\n"
        html += """
            <p class="legend"><span><i class="sw" style="background:#2b6cb0"></i>trace</span><span><i class="sw" style="background:#777"></i>card store</span>
            <span><i class="sw" style="background:rgba(49,130,206,.25)"></i>monitored region</span><span><i class="sw" style="border:1px dashed #805ad5"></i>refresh region</span>
            <span><i class="sw" style="background:#38a169"></i>notification</span><span><i class="sw" style="background:#e53e3e"></i>missed visit</span></p>

            """
        html += "<h2>Timeline</h2>\n" + timeline(run, main) + "\n"
        html += "<h2>Strategies</h2>\n<table><tr><th>strategy</th><th>visits</th><th>caught</th><th>recall</th><th>precision</th><th>p50 s</th><th>p90 s</th><th>not monitored</th><th>detection</th><th>refresh/h</th><th>churn/h</th><th>21st fails</th></tr>\n"
        for m in run.runs.map(\.metrics) + [run.oracle.metrics] {
            let cells = [m.strategy, "\(m.visits)", "\(m.caught)", pct(m.recall), pct(m.precision), num(m.delayP50), num(m.delayP90),
                         "\(m.missedNotMonitored)", "\(m.missedByDetection)", String(format: "%.2f", m.refreshCallsPerHour),
                         String(format: "%.1f", m.regionChurnPerHour), "\(m.monitorFailures)"]
            html += "<tr>" + cells.map { "<td>\(esc($0))</td>" }.joined() + "</tr>\n"
        }
        html += "</table>\n<h2>Trace file</h2>\n<ul>\n"
        let r = run.trace.report
        html += "<li>format \(esc(r.format)), \(r.points) points in \(r.parts) part(s); \(r.fixes) kept</li>\n"
        for w in r.warnings { html += "<li>\(esc(w))</li>\n" }
        html += "</ul>\n</body></html>\n"
        return html
    }

    static func pct(_ v: Double?) -> String { v.map { String(format: "%.1f%%", $0 * 100) } ?? "-" }
    static func num(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "-" }
    static func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    struct Projection {
        var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double, kx: Double, scale: Double
        func x(_ lon: Double) -> Double { HTMLReport.pad + (lon - minLon) * kx * scale }
        func y(_ lat: Double) -> Double { HTMLReport.height - HTMLReport.pad - (lat - minLat) * scale }
        /// Pixels per metre.
        var perMeter: Double { scale / 111_195.08 }
    }

    static func projection(_ run: TraceRun) -> Projection {
        var minLat = 90.0, maxLat = -90.0, minLon = 180.0, maxLon = -180.0
        for f in run.trace.fixes { minLat = min(minLat, f.latitude); maxLat = max(maxLat, f.latitude); minLon = min(minLon, f.longitude); maxLon = max(maxLon, f.longitude) }
        if minLat > maxLat { minLat = 0; maxLat = 1; minLon = 0; maxLon = 1 }
        let kx = cos((minLat + maxLat) / 2 * .pi / 180)
        let spanX = max((maxLon - minLon) * kx, 1e-4), spanY = max(maxLat - minLat, 1e-4)
        let scale = min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY)
        return Projection(minLat: minLat, maxLat: maxLat, minLon: minLon, maxLon: maxLon, kx: kx, scale: scale)
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func map(_ run: TraceRun, _ main: StrategyRun) -> String {
        let p = projection(run)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        // Regions first (underneath), deduplicated by geometry: "over time" shows as overlapping translucency.
        var seen = Set<String>()
        for iv in main.intervals {
            let key = "\(iv.lat),\(iv.lon),\(iv.radiusMeters)"
            guard seen.insert(key).inserted else { continue }
            let r = max(1.5, iv.radiusMeters * p.perMeter)
            if iv.isRefreshRegion {
                svg += "<circle cx=\"\(f(p.x(iv.lon)))\" cy=\"\(f(p.y(iv.lat)))\" r=\"\(f(r))\" fill=\"none\" stroke=\"#805ad5\" stroke-dasharray=\"4 3\" stroke-width=\"0.8\"/>\n"
            } else {
                svg += "<circle cx=\"\(f(p.x(iv.lon)))\" cy=\"\(f(p.y(iv.lat)))\" r=\"\(f(r))\" fill=\"rgba(49,130,206,.18)\" stroke=\"#3182ce\" stroke-width=\"0.5\"/>\n"
            }
        }
        let total = max(1, run.trace.fixCount)
        let stride = max(1, total / 4000)
        for segment in run.trace.segments {
            var pts: [String] = []
            for (i, fix) in segment.enumerated() where i % stride == 0 || i == segment.count - 1 {
                pts.append("\(f(p.x(fix.longitude))),\(f(p.y(fix.latitude)))")
            }
            svg += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"#2b6cb0\" stroke-width=\"1.5\"/>\n"
        }
        for s in run.stores {
            let c = s.location.coordinate
            svg += "<rect x=\"\(f(p.x(c.longitude) - 2.5))\" y=\"\(f(p.y(c.latitude) - 2.5))\" width=\"5\" height=\"5\" fill=\"#777\"><title>\(esc(s.location.name))</title></rect>\n"
        }
        let byId = Dictionary(run.stores.map { ($0.location.id, $0) }, uniquingKeysWith: { a, _ in a })
        for e in main.events where e.kind == .notification {
            guard let s = byId[e.location] else { continue }
            let c = s.location.coordinate
            svg += "<circle cx=\"\(f(p.x(c.longitude)))\" cy=\"\(f(p.y(c.latitude)))\" r=\"6\" fill=\"none\" stroke=\"#38a169\" stroke-width=\"2.5\"><title>\(esc(e.detail)) at \(TraceTime.format(e.time))</title></circle>\n"
        }
        for o in main.outcomes where o.delay == nil {
            let x = p.x(o.visit.lon), y = p.y(o.visit.lat)
            svg += "<path d=\"M\(f(x - 6)) \(f(y - 6))L\(f(x + 6)) \(f(y + 6))M\(f(x + 6)) \(f(y - 6))L\(f(x - 6)) \(f(y + 6))\" stroke=\"#e53e3e\" stroke-width=\"2.5\"><title>missed visit to \(esc(o.visit.name)) (\(o.wasMonitored ? "monitored, not detected" : "not monitored"))</title></path>\n"
        }
        let meters = niceScale(100 / p.perMeter)
        let barPx = meters * p.perMeter
        svg += "<line x1=\"\(f(width - pad - barPx))\" y1=\"\(f(height - 8))\" x2=\"\(f(width - pad))\" y2=\"\(f(height - 8))\" stroke=\"#222\" stroke-width=\"2\"/>"
        svg += "<text x=\"\(f(width - pad - barPx))\" y=\"\(f(height - 12))\" font-size=\"11\">\(meters >= 1000 ? "\(Int(meters / 1000)) km" : "\(Int(meters)) m")</text>\n"
        return svg + "</svg>"
    }

    static func niceScale(_ m: Double) -> Double {
        let options: [Double] = [10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000]
        return options.last { $0 <= m } ?? 10
    }

    static func timeline(_ run: TraceRun, _ main: StrategyRun) -> String {
        let fixes = run.trace.fixes
        guard let t0 = fixes.first?.time, let t1 = fixes.last?.time, t1 > t0 else { return "<p>(no time span)</p>" }
        let w = width, h = 150.0, left = 110.0
        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * (w - left - 10) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
        let rows = ["segments", "regions", "refresh", "visits", "notifications"]
        for (i, name) in rows.enumerated() { svg += "<text x=\"4\" y=\"\(f(22 + Double(i) * 26))\" font-size=\"12\">\(name)</text>\n" }
        for s in run.trace.segments {
            guard let a = s.first?.time, let b = s.last?.time else { continue }
            svg += "<rect x=\"\(f(x(a)))\" y=\"12\" width=\"\(f(max(1, x(b) - x(a))))\" height=\"12\" fill=\"#2b6cb0\"/>\n"
        }
        // Monitored location regions over time as a step line (0 … max).
        var changes: [(Double, Int)] = []
        for iv in main.intervals where !iv.isRefreshRegion { changes.append((iv.start, 1)); changes.append((iv.end, -1)) }
        changes.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var count = 0, peak = 1
        var path = "M\(f(x(t0))) 62"
        for (_, d) in changes { count += d; peak = max(peak, count) }
        count = 0
        for (t, d) in changes {
            count += d
            let y = 62 - Double(count) / Double(peak) * 22
            path += "H\(f(x(min(max(t, t0), t1))))V\(f(y))"
        }
        svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#3182ce\" stroke-width=\"1.2\"/><text x=\"\(f(w - 60))\" y=\"44\" font-size=\"10\">max \(peak)</text>\n"
        for e in main.events where e.kind == .refreshRequest || e.kind == .refreshFailed {
            svg += "<line x1=\"\(f(x(e.time)))\" y1=\"66\" x2=\"\(f(x(e.time)))\" y2=\"80\" stroke=\"\(e.kind == .refreshFailed ? "#e53e3e" : "#805ad5")\" stroke-width=\"1\"/>\n"
        }
        for o in main.outcomes {
            let color = o.delay == nil ? "#e53e3e" : "#38a169"
            svg += "<rect x=\"\(f(x(o.visit.arrival)))\" y=\"92\" width=\"\(f(max(2, x(o.visit.departure) - x(o.visit.arrival))))\" height=\"12\" fill=\"\(color)\"><title>\(esc(o.visit.name))</title></rect>\n"
        }
        for e in main.events where e.kind == .notification {
            svg += "<circle cx=\"\(f(x(e.time)))\" cy=\"124\" r=\"3.5\" fill=\"#38a169\"><title>\(esc(e.detail))</title></circle>\n"
        }
        svg += "<text x=\"\(f(left))\" y=\"146\" font-size=\"11\">\(TraceTime.format(t0))</text><text x=\"\(f(w - 150))\" y=\"146\" font-size=\"11\">\(TraceTime.format(t1))</text>\n"
        return svg + "</svg>"
    }
}
