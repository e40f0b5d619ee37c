import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation

/// Renders import progress as one self-overwriting line on standard error.
final class ProgressLine {
    private let output: FileHandleOutput
    private var shown = false

    init(output: FileHandleOutput) { self.output = output }

    func show(_ p: ImportProgress) {
        if let stage = p.stage {
            let line =
                p.unit == "rows"
                ? "\(formatCount(p.rows)) rows read in \(Self.clock(p.elapsedSeconds)); \(stage)…"
                : "\(p.fileName.forMessage()): \(stage)"
            output.write(output.isTerminal ? "\r\u{1B}[K" + line : line + "\n")
            shown = output.isTerminal
            return
        }
        let rate = p.rowsPerSecond >= 10 || p.rowsPerSecond == 0 ? formatCount(Int(p.rowsPerSecond)) : String(format: "%.1f", p.rowsPerSecond)
        var parts = ["\(formatCount(p.rows)) \(p.unit)", "\(rate) \(p.unit)/s"]
        if let fraction = p.fraction { parts.append(String(format: "%.0f%%", fraction * 100)) }
        if let eta = p.etaSeconds { parts.append("ETA \(Self.clock(eta))") }
        let file = p.fileCount > 1 ? " [\(p.fileIndex + 1)/\(p.fileCount)]" : ""
        let line = "\(p.fileName.forMessage())\(file): " + parts.joined(separator: "  ")
        // On a terminal the line overwrites itself; forced into a pipe or log, it is one line per update.
        output.write(output.isTerminal ? "\r\u{1B}[K" + line : line + "\n")
        shown = output.isTerminal
    }

    /// Removes the line before the summary is printed.
    func clear() {
        if shown { output.write("\r\u{1B}[K") }
        shown = false
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

extension ProgressLine {
    /// Shows `importer`'s progress as `mode` says (`auto`: on a terminal only), and its notices unless `never`.
    func attach(to importer: ChainImporter, mode: ProgressMode) {
        if mode == .always || (mode == .auto && output.isTerminal) { importer.progress = { self.show($0) } }
        if mode != .never { importer.notice = { [output] in output.write("\($0.forMessage(limit: 500))\n") } }
    }
}

/// When `oncue import` shows its progress on standard error.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable { case auto, always, never }
