import Foundation

/// `index.html` of an output folder: the Pareto plot of served recall against refresh calls (from the seeds of a sweep, or
/// the single run), the configurations' table, and links to the per-trace maps.
enum IndexPage {
    static func render(summary: ReplaySummary, sweep: SweepResult?, traces: [(name: String, page: String)]) -> String {
        var points: [ParetoPlot.Point] = []
        var oracleOS: Double?
        var oracle: Double?
        var rows = ""
        if let sweep {
            // The references of the first scenario variant are the plot's lines; every variant's are in the table.
            oracleOS = sweep.points.first { $0.strategy == "oracle-os" }?.intervals["served_recall"]?.mean
            oracle = sweep.points.first { $0.strategy == "oracle" }?.intervals["served_recall"]?.mean
            let table = sweep.table()
            rows = "<table><tr><th>#</th>" + table.header.map { "<th>\(HTML.esc($0))</th>" }.joined() + "</tr>\n"
            var n = 0
            for (p, cells) in zip(sweep.points, table.rows) {
                var number = ""
                if (try? Strategy.parse(p.strategy))?.isOracle == false, let r = p.peopleIntervals["served_recall"] ?? p.intervals["served_recall"],
                    let c = p.intervals["refresh_calls_per_hour"]
                {
                    points.append(ParetoPlot.Point(label: p.label, recall: r, refresh: c))
                    n += 1
                    number = "\(n)"
                }
                rows += "<tr><td>\(number)</td>" + cells.map { "<td>\(HTML.esc($0))</td>" }.joined() + "</tr>\n"
            }
            rows +=
                "</table>\n<p>\(sweep.seeds.count) seed(s), \(sweep.traces) traces of \(sweep.people) people, \(String(format: "%.1f", sweep.hours)) h each seed; served recall and precision [95 % interval over people], the rest means over seeds; * fewer than \(SweepResult.fewMoments) card moments.</p>\n"
        } else {
            oracleOS = summary.oracleOSTotal.servedRecall
            oracle = summary.oracleTotal.servedRecall
            let table = summary.comparisonTable()
            rows = "<table><tr><th>#</th>" + table.header.map { "<th>\(HTML.esc($0))</th>" }.joined() + "</tr>\n"
            for (i, (m, cells)) in zip(summary.allTotals, table.rows).enumerated() {
                let isApp = i < summary.totals.count
                if isApp, let r = Interval([m.servedRecall ?? 0]), let c = Interval([m.refreshCallsPerHour]) {
                    points.append(ParetoPlot.Point(label: m.strategy, recall: r, refresh: c))
                }
                rows += "<tr><td>\(isApp ? "\(i + 1)" : "")</td>" + cells.map { "<td>\(HTML.esc($0))</td>" }.joined() + "</tr>\n"
            }
            rows += "</table>\n<p>One seed (\(summary.seed)); run with --seeds K for intervals.</p>\n<p>\(HTML.esc(ReplaySummary.columnNotes))</p>\n"
        }
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>oncue replay — \(HTML.esc(summary.profile))</title>
            <style>\(HTML.style)</style></head><body>
            <h1>\(HTML.esc(summary.scenario)): served recall against refresh calls</h1>
            <p>Profile \(HTML.esc(summary.profile)); cards: \(HTML.esc(summary.wallet.joined(separator: ", "))).</p>
            \(ParetoPlot.render(points, oracleOS: oracleOS, oracle: oracle))
            <ol class="points">\(points.map { "<li>\(HTML.esc($0.label))</li>" }.joined())</ol>
            <p>Filled: no other configuration has both more served recall and fewer refresh calls. Bars: 95 % intervals (over people with a sweep).</p>
            \(rows)
            <h2>Per-trace maps</h2>
            <ul>

            """
        for t in traces { html += "<li><a href=\"\(HTML.esc(t.page))\">\(HTML.esc(t.name))</a></li>\n" }
        html += "</ul>\n</body></html>\n"
        return html
    }
}
