import Foundation
import Testing

/// Facts the repository knows, held against the documents that name them, so that neither can change alone: the
/// modules of docs/architecture.md against the folders of `Sources/`, and RELIABILITY.md's fuzz targets against
/// `Fuzz/Package.swift`. Sets, never counts.
@Suite struct DocumentFactsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repo.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first cells (`` `Name` ``) of the markdown table rows after `heading` up to the next heading.
    static func firstCells(of document: String, after heading: String) -> [String] {
        guard let start = document.range(of: heading) else { return [] }
        var cells: [String] = []
        for line in document[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| "), let cell = line.dropFirst(2).split(separator: "|").first else { continue }
            cells.append(contentsOf: cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) })
        }
        return cells
    }

    @Test func theArchitecturesModuleTableIsTheSourcesFolder() throws {
        let sources = Self.repo.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: sources.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
        }
        let cModules = Set(folders.filter { $0.hasPrefix("C") && $0.dropFirst().first?.isUppercase == true && $0 != "CommandLineOutput" })
        let swiftModules = Set(folders).subtracting(cModules)
        let architecture = try Self.text("docs/architecture.md")
        let table = Set(Self.firstCells(of: architecture, after: "## Modules")).subtracting(["module", "---"])
        #expect(table == swiftModules)
        for c in cModules { #expect(architecture.contains("`\(c)`") || architecture.contains(c), "\(c) is not named") }
    }

    @Test func reliabilityListsEveryFuzzTarget() throws {
        let package = try Self.text("Fuzz/Package.swift")
        let pattern = try NSRegularExpression(pattern: "\\(\"([A-Za-z]+Fuzzer)\"")
        let targets = Set(
            pattern.matches(in: package, range: NSRange(package.startIndex..., in: package)).map {
                String(package[Range($0.range(at: 1), in: package)!])
            })
        #expect(!targets.isEmpty)
        let table = Set(Self.firstCells(of: try Self.text("RELIABILITY.md"), after: "## Fuzzing").filter { $0.hasSuffix("Fuzzer") })
        #expect(table == targets)
    }
}
