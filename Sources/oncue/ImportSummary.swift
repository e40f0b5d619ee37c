import ChainImport
import CommandLineOutput
import Foundation
import LocationStore

/// The human-readable form of an import report. Everything that came from a file (its name, headers, values quoted in
/// messages) or from the store is written out with `forMessage`, so that it cannot drive the terminal.
enum ImportSummary {
    static func text(_ report: ImportReport, issueLines: Int = 10) -> String {
        var out = ""
        if let plan = report.geocodingPlan {
            out +=
                "geocoding (\(plan.mode)) at \(plan.service.forMessage()): \(formatCount(plan.uncachedAddresses)) address"
                + (plan.uncachedAddresses == 1 ? "" : "es") + " not in the cache, at most \(GeocodingPlan.duration(plan.estimatedSeconds))"
                + (plan.dryRun
                    ? "; dry run: none asked\n" : "; \(formatCount(plan.requestsSent)) requests sent, \(formatCount(plan.failed)) failed\n")
        }
        for file in report.files {
            out +=
                "\(file.fileName.forMessage(limit: 200)): \(formatCount(Int(file.fileSize))) bytes, \(file.encoding)"
                + (file.hadByteOrderMark ? " (BOM)" : "")
                + (file.format == "csv" ? ", delimiter '\(file.delimiter)'" : ", \(file.format == "geojson" ? "GeoJSON" : "GeoJSON sequence")")
                + (file.importId.map { ", import #\($0)" } ?? "") + "\n"
            out +=
                "  columns: "
                + file.columns.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.forMessage(limit: 60))" }
                .joined(separator: ", ") + "\n"
            out += "  " + counts(file.counts) + "\n"
            if let g = file.geocoding {
                out +=
                    "  geocoded: \(formatCount(g.placed)) of \(formatCount(g.rows)) rows (\(formatCount(g.asked)) asked, "
                    + "\(formatCount(g.fromCache)) from the cache); not found \(formatCount(g.notFound)), area only \(formatCount(g.ambiguous)), "
                    + "wrong country \(formatCount(g.wrongCountry)), failed \(formatCount(g.failed))"
                    + (g.notAsked > 0 ? ", not asked (dry run) \(formatCount(g.notAsked))" : "")
                    + (g.farFromOriginal > 0 ? ", far from the file's point \(formatCount(g.farFromOriginal))" : "") + "\n"
            }
            if let d = file.coordinatePrecision { out += "  coarse coordinates: \(d.advice)\n" }
            for (title, reasons) in [("rejected", file.rejectedByReason), ("warnings", file.warningsByReason)] where !reasons.isEmpty {
                out +=
                    "  \(title): "
                    + reasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                    .map { "\($0.key) \(formatCount($0.value))" }.joined(separator: ", ") + "\n"
            }
            for issue in file.issues.prefix(issueLines) {
                out += "    line \(issue.line): \(issue.severity.rawValue) \(issue.code): \(issue.message.forMessage(limit: 400))\n"
            }
            let more = file.counts.rejected + file.counts.warned - min(issueLines, file.issues.count)
            if more > 0, let id = file.importId { out += "    … see `oncue imports show \(id)` for every issue\n" }
        }
        if !report.networksCreated.isEmpty {
            let shown = report.networksCreated.prefix(8).map { $0.forMessage(limit: 60) }.joined(separator: ", ")
            out += "networks created: \(formatCount(report.networksCreated.count)) (\(shown)\(report.networksCreated.count > 8 ? ", …" : ""))\n"
        }
        if !report.replacedNetworks.isEmpty {
            out += "replaced networks: \(report.replacedNetworks.map { $0.forMessage(limit: 60) }.joined(separator: ", "))\n"
        }
        out +=
            "total: " + counts(report.totals)
            + String(format: " in %.2f s (%@ rows/s)", report.seconds, formatCount(Int(report.rowsPerSecond))) + "\n"
        out += report.dryRun ? "dry run: nothing was written\n" : "committed\n"
        return out
    }

    static func counts(_ c: ImportCounts) -> String {
        "read \(formatCount(c.read)), inserted \(formatCount(c.inserted)), updated \(formatCount(c.updated)), "
            + "unchanged \(formatCount(c.unchanged)), removed \(formatCount(c.removed)), rejected \(formatCount(c.rejected)), "
            + "warned \(formatCount(c.warned))"
    }
}
