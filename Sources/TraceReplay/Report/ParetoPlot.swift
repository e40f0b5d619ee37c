import Foundation

/// Recall against refresh calls per hour, one point per configuration with its 95 % interval bars in both
/// directions; configurations no other beats on both axes are filled. `oracle-os` and `oracle` recall are lines
/// (they make no refresh calls). The study's targets are dashed: served recall of at least `servedTarget`, and at most
/// `refreshBudget` refresh calls an hour (simulations/README.md, "Against the targets").
enum ParetoPlot {
    static let servedTarget = 0.60
    static let refreshBudget = 2.0

    struct Point {
        var label: String
        var recall: Interval
        var refresh: Interval
    }

    static let width = 900.0, height = 460.0, left = 60.0, right = 20.0, top = 20.0, bottom = 50.0

    static func render(_ points: [Point], oracleOS: Double?, oracle: Double?) -> String {
        let f = HTML.f
        let maxX = max(1, (points.map(\.refresh.high).max() ?? 1) * 1.1)
        let xTicks = niceStep(maxX)
        func x(_ v: Double) -> Double { left + v / maxX * (width - left - right) }
        func y(_ v: Double) -> Double { height - bottom - v * (height - top - bottom) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
        for k in 0...10 {
            let v = Double(k) / 10
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(v)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(v)))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(v) + 4))\" font-size=\"11\" text-anchor=\"end\">\(k * 10)%</text>\n"
        }
        var t = 0.0
        while t <= maxX + 1e-9 {
            svg += "<line x1=\"\(f(x(t)))\" y1=\"\(f(y(0)))\" x2=\"\(f(x(t)))\" y2=\"\(f(y(0) + 4))\" stroke=\"#222\"/>"
            svg +=
                "<text x=\"\(f(x(t)))\" y=\"\(f(y(0) + 17))\" font-size=\"11\" text-anchor=\"middle\">\(t == t.rounded() ? String(Int(t)) : String(format: "%.1f", t))</text>\n"
            t += xTicks
        }
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(0)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(0)))\" stroke=\"#222\"/>"
        svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(0)))\" x2=\"\(f(left))\" y2=\"\(f(top))\" stroke=\"#222\"/>\n"
        svg += "<text x=\"\(f((left + width) / 2))\" y=\"\(f(height - 10))\" font-size=\"12\" text-anchor=\"middle\">refresh calls per hour</text>"
        svg +=
            "<text x=\"14\" y=\"\(f((top + height - bottom) / 2))\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(f((top + height - bottom) / 2)))\">served recall (card moments)</text>\n"
        if let oracle {
            svg +=
                "<line x1=\"\(f(left))\" y1=\"\(f(y(oracle)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(oracle)))\" stroke=\"#555\" stroke-width=\"1\"/>"
            svg += "<text x=\"\(f(width - right - 4))\" y=\"\(f(y(oracle) - 4))\" font-size=\"11\" text-anchor=\"end\">oracle (ideal OS)</text>\n"
        }
        if let oracleOS {
            svg +=
                "<line x1=\"\(f(left))\" y1=\"\(f(y(oracleOS)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(oracleOS)))\" stroke=\"#c05621\" stroke-width=\"1.2\"/>"
            svg +=
                "<text x=\"\(f(width - right - 4))\" y=\"\(f(y(oracleOS) - 4))\" font-size=\"11\" text-anchor=\"end\" fill=\"#c05621\">oracle-os</text>\n"
        }
        svg +=
            "<line x1=\"\(f(left))\" y1=\"\(f(y(servedTarget)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(servedTarget)))\" stroke=\"#2f855a\" stroke-dasharray=\"5 4\"/>"
        svg +=
            "<text x=\"\(f(left + 4))\" y=\"\(f(y(servedTarget) - 4))\" font-size=\"11\" fill=\"#2f855a\">target: \(Int(servedTarget * 100)) % served</text>\n"
        if refreshBudget <= maxX {
            svg +=
                "<line x1=\"\(f(x(refreshBudget)))\" y1=\"\(f(y(0)))\" x2=\"\(f(x(refreshBudget)))\" y2=\"\(f(top))\" stroke=\"#2f855a\" stroke-dasharray=\"5 4\"/>"
            svg +=
                "<text x=\"\(f(x(refreshBudget) + 4))\" y=\"\(f(top + 12))\" font-size=\"11\" fill=\"#2f855a\">budget: \(Int(refreshBudget)) refresh/h</text>\n"
        }
        let front = paretoFront(points)
        for (i, p) in points.enumerated() {
            let cx = x(p.refresh.mean)
            let cy = y(p.recall.mean)
            svg +=
                "<g><title>\(HTML.esc(p.label)): recall \(HTML.pct(p.recall.mean)) [\(HTML.pct(p.recall.low))–\(HTML.pct(p.recall.high))], \(String(format: "%.2f", p.refresh.mean)) refresh/h</title>"
            svg += "<line x1=\"\(f(x(p.refresh.low)))\" y1=\"\(f(cy))\" x2=\"\(f(x(p.refresh.high)))\" y2=\"\(f(cy))\" stroke=\"#2b6cb0\"/>"
            svg +=
                "<line x1=\"\(f(cx))\" y1=\"\(f(y(max(0, p.recall.low))))\" x2=\"\(f(cx))\" y2=\"\(f(y(min(1, p.recall.high))))\" stroke=\"#2b6cb0\"/>"
            svg +=
                "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"5\" fill=\"\(front.contains(i) ? "#2b6cb0" : "#fff")\" stroke=\"#2b6cb0\" stroke-width=\"1.5\"/>"
            svg += "<text x=\"\(f(cx + 7))\" y=\"\(f(cy - 6))\" font-size=\"11\">\(i + 1)</text></g>\n"
        }
        return svg + "</svg>"
    }

    /// Indices of points no other point beats on both recall (higher) and refresh calls (lower).
    static func paretoFront(_ points: [Point]) -> Set<Int> {
        Set(
            points.indices.filter { i in
                !points.indices.contains { j in
                    j != i && points[j].recall.mean >= points[i].recall.mean && points[j].refresh.mean <= points[i].refresh.mean
                        && (points[j].recall.mean > points[i].recall.mean || points[j].refresh.mean < points[i].refresh.mean)
                }
            })
    }

    static func niceStep(_ span: Double) -> Double {
        for step in [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100] where span / step <= 10 { return step }
        return 200
    }
}
