import Foundation
import Geo
import LocationStore

/// A self-contained HTML page per trace: the strategy table, then for the strategy picked (radio buttons and CSS, no
/// scripts) a map of the regions it monitored, its notifications drawn at the store actually visited, its misses; a
/// timeline; and a table saying why each card moment was caught on time, early, late or missed.
package enum TracePage {
    package static func render(_ run: TraceRun, scenario: Scenario) -> String {
        let runs = run.allRuns
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>oncue replay — \(HTML.esc(run.trace.name))</title>
            <style>
            \(HTML.style)
            \(HTML.layerRules(runs.count))
            </style></head><body>
            <h1>\(HTML.esc(run.trace.name))</h1>
            <p>Profile <b>\(HTML.esc(scenario.profile))</b>, seed \(scenario.seed) (trace seed \(run.seed)).
            \(run.trace.fixCount) fixes in \(run.trace.segments.count) segment(s), \(run.phoneFixes) delivered by the OS,
            \(String(format: "%.2f", run.trace.activeSeconds / 3600)) h; \(run.stores.count) card stores within reach,
            \(run.visits.count) location visits in \(run.moments.count) card moments\(run.truth.name != run.trace.name ? " (on the true path \(HTML.esc(run.truth.name)))" : "").</p>
            <h2>Strategies</h2>
            \(strategyTable(runs))

            """
        for i in runs.indices {
            html += "<input type=\"radio\" name=\"pick\" id=\"pick-\(i)\"\(i == 0 ? " checked" : "")>\n"
        }
        html +=
            "<p class=\"pick\">Show: " + runs.enumerated().map { i, r in "<label for=\"pick-\(i)\">\(HTML.esc(r.strategy.name))</label>" }.joined()
            + "</p>\n"
        html += "<div><h2>Map</h2>\n" + map(run, model: scenario.groundTruth) + "\n"
        html += """
            <p class="legend"><span><i class="sw" style="background:#2b6cb0"></i>trace</span><span><i class="sw" style="background:#777"></i>card store</span>
            <span><i class="sw" style="background:rgba(49,130,206,.3)"></i>store region</span><span><i class="sw" style="background:rgba(128,90,213,.2)"></i>wide region</span>
            <span><i class="sw" style="background:rgba(56,161,105,.35)"></i>small store region</span><span><i class="sw" style="border:1px dashed #805ad5"></i>refresh region</span>
            <span><i class="sw" style="background:#38a169"></i>notification at the store visited</span><span><i class="sw" style="background:#dd6b20"></i>notification with no visit</span>
            <span><i class="sw" style="background:#e53e3e"></i>missed card moment</span></p>
            <h2>Timeline</h2>
            \(timeline(run))
            <h2>Cards on screen</h2>
            \(CardTimeline.render(run))
            <h2>Card moments</h2>
            \(momentTables(run))
            </div>
            <h2>Trace file</h2>
            <ul>

            """
        let r = run.trace.report
        html += "<li>format \(HTML.esc(r.format)), \(r.points) points in \(r.parts) part(s); \(r.fixes) kept</li>\n"
        for w in r.warnings { html += "<li>\(HTML.esc(w))</li>\n" }
        html += "</ul>\n</body></html>\n"
        return html
    }

    static func strategyTable(_ runs: [StrategyRun]) -> String {
        var html =
            "<table><tr><th>strategy</th><th>moments</th><th>on screen at the till</th><th>alert precision</th><th>alert, long stays</th>"
            + "<th>buzzes at no moment</th><th>quiet cards at no moment</th><th>served</th><th>served recall</th><th>before leaving</th><th>precision</th>"
            + "<th>dup</th><th>p50 s</th><th>not mon.</th><th>OS det.</th><th>region det.</th><th>app unconf.</th><th>app policy</th><th>app late</th><th>refresh/h</th><th>wakes/h</th><th>GPS s/h</th></tr>\n"
        for m in runs.map(\.metrics) {
            let t = m.tiers
            let cells = [
                m.strategy, "\(m.cardMoments)", HTML.pct(t.onScreenRecall), HTML.pct(t.alertPrecision), HTML.pct(t.alertLongStayRecall),
                "\(t.strayAlerts)", "\(t.strayQuiet)", "\(m.served)", HTML.pct(m.servedRecall), HTML.pct(m.recall), HTML.pct(m.precision),
                "\(m.duplicates)", HTML.num(m.delayP50), "\(m.missedNotMonitored)", "\(m.missedOSDetection)", "\(m.missedRegionDetection)",
                "\(m.missedNotConfirmed)", "\(m.missedPolicy)", "\(m.late)", String(format: "%.2f", m.refreshCallsPerHour),
                String(format: "%.1f", m.wakesPerHour),
                String(format: "%.0f", m.gpsSecondsPerHour),
            ]
            html += "<tr>" + cells.map { "<td>\(HTML.esc($0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</table>"
    }

    /// The recorded position at `time` (the nearest fix), to place a notification that matched no visit.
    static func position(_ fixes: [TraceFix], at time: Double) -> (Double, Double)? {
        guard !fixes.isEmpty else { return nil }
        var lo = 0
        var hi = fixes.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if fixes[mid].time < time { lo = mid + 1 } else { hi = mid }
        }
        let best = lo > 0 && abs(fixes[lo - 1].time - time) < abs(fixes[lo].time - time) ? lo - 1 : lo
        return (fixes[best].latitude, fixes[best].longitude)
    }

    static func map(_ run: TraceRun, model: GroundTruthModel) -> String {
        let fixes = run.trace.fixes
        let p = MapProjection(fixes.map { ($0.latitude, $0.longitude) } + run.truth.fixes.map { ($0.latitude, $0.longitude) })
        let f = HTML.f
        let w = MapProjection.width
        let h = MapProjection.height
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
        for (i, r) in run.allRuns.enumerated() {
            svg += "<g class=\"layer layer-\(i)\">\n"
            // Regions underneath, one circle per geometry: "over time" shows as overlapping translucency.
            var seen = Set<String>()
            for iv in r.intervals {
                guard seen.insert("\(iv.lat),\(iv.lon),\(iv.radiusMeters),\(iv.role)").inserted else { continue }
                let radius = max(1.5, iv.radiusMeters * p.perMeter)
                let look: String =
                    switch iv.role {
                    case .refresh: "fill=\"none\" stroke=\"#805ad5\" stroke-dasharray=\"4 3\" stroke-width=\"0.8\""
                    case .wide: "fill=\"rgba(128,90,213,.10)\" stroke=\"#805ad5\" stroke-width=\"0.5\""
                    case .small: "fill=\"rgba(56,161,105,.22)\" stroke=\"#38a169\" stroke-width=\"0.6\""
                    case .store: "fill=\"rgba(49,130,206,.18)\" stroke=\"#3182ce\" stroke-width=\"0.5\""
                    }
                svg += "<circle cx=\"\(f(p.x(iv.lon)))\" cy=\"\(f(p.y(iv.lat)))\" r=\"\(f(radius))\" \(look)/>\n"
            }
            svg += "</g>\n"
        }
        let stride = max(1, fixes.count / 4000)
        for segment in run.trace.segments {
            var pts: [String] = []
            for (i, fix) in segment.enumerated() where i % stride == 0 || i == segment.count - 1 {
                pts.append("\(f(p.x(fix.longitude))),\(f(p.y(fix.latitude)))")
            }
            svg += "<polyline points=\"\(pts.joined(separator: " "))\" fill=\"none\" stroke=\"#2b6cb0\" stroke-width=\"1.2\" opacity=\"0.8\"/>\n"
        }
        for s in run.stores {
            let c = s.location.coordinate
            svg +=
                "<rect x=\"\(f(p.x(c.longitude) - 2.5))\" y=\"\(f(p.y(c.latitude) - 2.5))\" width=\"5\" height=\"5\" fill=\"#777\"><title>\(HTML.esc(s.location.name)) (\(HTML.esc(s.location.networkId)))</title></rect>\n"
        }
        for (i, r) in run.allRuns.enumerated() {
            svg += "<g class=\"layer layer-\(i)\">\n"
            // Notifications that matched a card moment, at the store visited; the rest where the person was.
            for o in r.outcomes {
                guard o.delay != nil, let visit = o.moment.visits.first(where: { $0.locationId == o.notifiedLocationId }) ?? o.moment.visits.first
                else { continue }
                let color = o.status == .late || o.status == .slow ? "#d69e2e" : "#38a169"
                svg +=
                    "<circle cx=\"\(f(p.x(visit.lon)))\" cy=\"\(f(p.y(visit.lat)))\" r=\"6\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2.5\"><title>\(HTML.esc(visit.name)): \(HTML.esc(o.status.rawValue)), \(HTML.esc(o.detail))</title></circle>\n"
            }
            for n in r.notifications {
                // A notification within a card moment's window is drawn once, at the store; one with no moment is drawn
                // where the person was.
                let matched = r.outcomes.contains { o in
                    o.moment.networkId == n.networkId
                        && n.time >= o.moment.arrival - model.matchBeforeSeconds && n.time <= o.moment.departure + model.matchAfterSeconds
                }
                guard !matched, let at = position(fixes, at: n.time) else { continue }
                svg +=
                    "<circle cx=\"\(f(p.x(at.1)))\" cy=\"\(f(p.y(at.0)))\" r=\"4.5\" fill=\"none\" stroke=\"#dd6b20\" stroke-width=\"2\"><title>\(HTML.esc(n.card)) card at \(TraceTime.format(n.time)), no card moment (\(HTML.esc(n.trigger.rawValue)))</title></circle>\n"
            }
            for o in r.outcomes where o.delay == nil {
                guard let visit = o.moment.visits.first else { continue }
                let x = p.x(visit.lon)
                let y = p.y(visit.lat)
                svg +=
                    "<path d=\"M\(f(x - 6)) \(f(y - 6))L\(f(x + 6)) \(f(y + 6))M\(f(x + 6)) \(f(y - 6))L\(f(x - 6)) \(f(y + 6))\" stroke=\"#e53e3e\" stroke-width=\"2.5\"><title>missed \(HTML.esc(visit.name)): \(HTML.esc(o.miss?.rawValue ?? "")), \(HTML.esc(o.detail))</title></path>\n"
            }
            svg += "</g>\n"
        }
        let meters = niceScale(100 / p.perMeter)
        let barPx = meters * p.perMeter
        svg +=
            "<line x1=\"\(f(w - MapProjection.pad - barPx))\" y1=\"\(f(h - 8))\" x2=\"\(f(w - MapProjection.pad))\" y2=\"\(f(h - 8))\" stroke=\"#222\" stroke-width=\"2\"/>"
        svg +=
            "<text x=\"\(f(w - MapProjection.pad - barPx))\" y=\"\(f(h - 12))\" font-size=\"11\">\(meters >= 1000 ? "\(Int(meters / 1000)) km" : "\(Int(meters)) m")</text>\n"
        return svg + "</svg>"
    }

    static func niceScale(_ m: Double) -> Double {
        let options: [Double] = [10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000]
        return options.last { $0 <= m } ?? 10
    }

    static func timeline(_ run: TraceRun) -> String {
        let fixes = run.trace.fixes
        guard let t0 = fixes.first?.time, let t1 = fixes.last?.time, t1 > t0 else { return "<p>(no time span)</p>" }
        let f = HTML.f
        let w = MapProjection.width
        let h = 150.0
        let left = 110.0
        func x(_ t: Double) -> Double { left + (min(max(t, t0), t1) - t0) / (t1 - t0) * (w - left - 10) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
        for (i, name) in ["segments", "regions", "refresh", "card moments", "notifications"].enumerated() {
            svg += "<text x=\"4\" y=\"\(f(22 + Double(i) * 26))\" font-size=\"12\">\(name)</text>\n"
        }
        for s in run.trace.segments {
            guard let a = s.first?.time, let b = s.last?.time else { continue }
            svg += "<rect x=\"\(f(x(a)))\" y=\"12\" width=\"\(f(max(1, x(b) - x(a))))\" height=\"12\" fill=\"#2b6cb0\"/>\n"
        }
        for (i, r) in run.allRuns.enumerated() {
            svg += "<g class=\"layer layer-\(i)\">\n"
            // Monitored regions over time as a step line (0 … max).
            var changes: [(Double, Int)] = []
            for iv in r.intervals where !iv.isRefreshRegion {
                changes.append((iv.start, 1))
                changes.append((iv.end, -1))
            }
            changes.sort { ($0.0, $0.1) < ($1.0, $1.1) }
            var count = 0
            var peak = 1
            for (_, d) in changes {
                count += d
                peak = max(peak, count)
            }
            count = 0
            var path = "M\(f(x(t0))) 62"
            for (t, d) in changes {
                count += d
                path += "H\(f(x(t)))V\(f(62 - Double(count) / Double(peak) * 22))"
            }
            svg +=
                "<path d=\"\(path)\" fill=\"none\" stroke=\"#3182ce\" stroke-width=\"1.2\"/><text x=\"\(f(w - 60))\" y=\"44\" font-size=\"10\">max \(peak)</text>\n"
            for e in r.events where e.kind == .refreshRequest || e.kind == .refreshFailed {
                svg +=
                    "<line x1=\"\(f(x(e.time)))\" y1=\"66\" x2=\"\(f(x(e.time)))\" y2=\"80\" stroke=\"\(e.kind == .refreshFailed ? "#e53e3e" : "#805ad5")\" stroke-width=\"1\"/>\n"
            }
            for o in r.outcomes {
                let color = o.status == .missed ? "#e53e3e" : o.status == .late || o.status == .slow ? "#d69e2e" : "#38a169"
                svg +=
                    "<rect x=\"\(f(x(o.moment.arrival)))\" y=\"92\" width=\"\(f(max(2, x(o.moment.departure) - x(o.moment.arrival))))\" height=\"12\" fill=\"\(color)\"><title>\(HTML.esc(o.moment.networkId)): \(HTML.esc(o.status.rawValue))</title></rect>\n"
            }
            for n in r.notifications {
                svg +=
                    "<circle cx=\"\(f(x(n.time)))\" cy=\"124\" r=\"3.5\" fill=\"#38a169\"><title>\(HTML.esc(n.card)) card, \(HTML.esc(n.trigger.rawValue))</title></circle>\n"
            }
            svg += "</g>\n"
        }
        svg +=
            "<text x=\"\(f(left))\" y=\"146\" font-size=\"11\">\(TraceTime.format(t0))</text><text x=\"\(f(w - 150))\" y=\"146\" font-size=\"11\">\(TraceTime.format(t1))</text>\n"
        return svg + "</svg>"
    }

    static func momentTables(_ run: TraceRun) -> String {
        let names = Dictionary(run.stores.map { ($0.location.id, $0.location.name) }, uniquingKeysWith: { a, _ in a })
        var html = ""
        for (i, r) in run.allRuns.enumerated() {
            html += "<div class=\"layer layer-\(i)\"><p><b>\(HTML.esc(r.strategy.name))</b></p>\n"
            html +=
                "<table><tr><th>#</th><th class=\"l\">card</th><th class=\"l\">stores visited</th><th>arrival</th><th>stay min</th><th class=\"l\">outcome</th><th>delay s</th><th>notifications</th><th class=\"l\">why</th></tr>\n"
            for (k, o) in r.outcomes.enumerated() {
                let stores = o.moment.locationIds.map { names[$0] ?? $0 }.joined(separator: ", ")
                let cls = o.status == .missed ? "miss" : o.status == .late || o.status == .slow ? "late" : "ok"
                let outcome = o.status == .missed ? "missed: \(o.miss?.rawValue ?? "")" : o.status.rawValue
                let cells = [
                    "\(k + 1)", o.moment.networkId, stores, TraceTime.format(o.moment.arrival),
                    String(format: "%.1f", (o.moment.departure - o.moment.arrival) / 60), outcome, HTML.num(o.delay), "\(o.notifications)", o.detail,
                ]
                html +=
                    "<tr>"
                    + cells.enumerated().map { j, c in
                        "<td\(j == 1 || j == 2 || j == 8 ? " class=\"l\"" : j == 5 ? " class=\"l \(cls)\"" : "")>\(HTML.esc(c))</td>"
                    }.joined() + "</tr>\n"
            }
            html += "</table></div>\n"
        }
        return html
    }
}
