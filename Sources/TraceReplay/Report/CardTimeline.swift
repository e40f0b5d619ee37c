import Foundation
import OnCueClient

/// The trace page's timeline of cards as the person saw them: every card moment's arrival, till and departure, and
/// under it, for each strategy, every card's life on screen by tier — quiet, alert, and how it went (removed,
/// replaced, still there when the recording ended) — so an analyst sees at a glance which card was on screen at
/// each till.
enum CardTimeline {
    static let rowHeight = 16.0

    static func render(_ run: TraceRun) -> String {
        let fixes = run.trace.fixes
        guard let t0 = fixes.first?.time, let t1 = fixes.last?.time, t1 > t0 else { return "<p>(no time span)</p>" }
        let f = HTML.f
        let w = MapProjection.width
        let left = 150.0
        let runs = run.allRuns
        let h = 40 + Double(runs.count + 1) * rowHeight + 24
        func x(_ t: Double) -> Double { left + (min(max(t, t0), t1) - t0) / (t1 - t0) * (w - left - 10) }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
        // The moments: the stay as a grey bar, the till as a black tick.
        let top = 20.0
        svg += "<text x=\"4\" y=\"\(f(top + 11))\" font-size=\"11\">card moments</text>\n"
        for (i, c) in run.moments.enumerated() {
            svg +=
                "<rect x=\"\(f(x(c.arrival)))\" y=\"\(f(top))\" width=\"\(f(max(2, x(c.departure) - x(c.arrival))))\" height=\"12\" fill=\"#cbd5e0\"><title>\(HTML.esc(c.networkId)): arrival \(TraceTime.format(c.arrival)), departure \(TraceTime.format(c.departure))</title></rect>\n"
            for till in i < run.tills.count ? run.tills[i] : [] {
                svg +=
                    "<line x1=\"\(f(x(till.payBy)))\" y1=\"\(f(top - 3))\" x2=\"\(f(x(till.payBy)))\" y2=\"\(f(top + 15))\" stroke=\"#1a202c\" stroke-width=\"1.5\"><title>till \(TraceTime.format(till.payBy))</title></line>\n"
            }
        }
        for (k, r) in runs.enumerated() {
            let y = top + Double(k + 1) * rowHeight + 4
            svg += "<text x=\"4\" y=\"\(f(y + 10))\" font-size=\"11\">\(HTML.esc(r.strategy.name))</text>\n"
            for life in r.cardLives {
                let end = life.ended.isFinite ? life.ended : t1
                let quietEnd = life.upgraded ?? end
                if life.tier == .quiet {
                    svg += bar(x(life.posted), x(quietEnd), y, "#9ae6b4", "\(life.card) quiet from \(TraceTime.format(life.posted))")
                }
                if let alert = life.alertTime {
                    svg += bar(x(alert), x(end), y, "#276749", "\(life.card) alert from \(TraceTime.format(alert))")
                }
                if life.end != .traceEnded {
                    let color = life.end == .removed ? "#c53030" : "#718096"
                    svg +=
                        "<line x1=\"\(f(x(end)))\" y1=\"\(f(y - 1))\" x2=\"\(f(x(end)))\" y2=\"\(f(y + 12))\" stroke=\"\(color)\" stroke-width=\"1.5\"><title>\(HTML.esc(life.card)) \(life.end.rawValue) at \(TraceTime.format(end))</title></line>\n"
                }
            }
        }
        let legendY = h - 6
        svg +=
            "<text x=\"\(f(left))\" y=\"\(f(legendY))\" font-size=\"11\">\(TraceTime.format(t0)) — grey: stay, black tick: till; light green: quiet card, dark green: alert, red: removed, grey tick: replaced — \(TraceTime.format(t1))</text>\n"
        return svg + "</svg>"
    }

    private static func bar(_ a: Double, _ b: Double, _ y: Double, _ color: String, _ title: String) -> String {
        "<rect x=\"\(HTML.f(a))\" y=\"\(HTML.f(y))\" width=\"\(HTML.f(max(2, b - a)))\" height=\"11\" fill=\"\(color)\"><title>\(HTML.esc(title))</title></rect>\n"
    }
}
