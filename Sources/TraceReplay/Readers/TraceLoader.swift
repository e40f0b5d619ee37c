import Foundation

/// Picks a reader by file extension (or content), reads, and cleans one trace file.
public enum TraceLoader {
    /// File extensions the loader understands (lower case).
    package static let extensions: Set<String> = ["gpx", "plt", "csv", "tsv", "txt", "geojson", "json"]

    public static func load(path: String, cleaning: TraceCleaning = .init(), csv: CSVMapping = .init(), name: String? = nil) throws -> Trace {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw TraceReadError.io("cannot read \(path): \(error.localizedDescription)") }
        let ext = url.pathExtension.lowercased()
        let display = name ?? url.lastPathComponent
        let raw: RawTrace
        let format: String
        switch ext {
        case "gpx":
            raw = try GPXReader.read(data)
            format = "gpx"
        case "plt":
            var r = PLTReader.read(decodeText(data))
            let labelsURL = url.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("labels.txt")
            if url.deletingLastPathComponent().lastPathComponent == "Trajectory", let labelData = try? Data(contentsOf: labelsURL) {
                r.labels = PLTReader.readLabels(decodeText(labelData))
            }
            raw = r
            format = "plt"
        case "geojson", "json":
            raw = try GeoJSONTraceReader.read(data)
            format = "geojson"
        case "csv", "tsv", "txt":
            raw = try CSVTraceReader.read(decodeText(data), mapping: csv)
            format = "csv"
        default:
            if data.starts(with: Data("<?xml".utf8)) || data.starts(with: Data("<gpx".utf8)) {
                raw = try GPXReader.read(data)
                format = "gpx"
            } else {
                throw TraceReadError.unknownFormat("\(path): unknown trace format '.\(ext)' (expected .gpx, .plt, .csv, .geojson)")
            }
        }
        return cleaning.clean(raw, name: display, format: format)
    }

    /// Every trace in one file: a CSV with a trajectory or track id column holds one per id (named `FILE#ID`), any other
    /// file one.
    package static func loadAll(path: String, cleaning: TraceCleaning = .init(), csv: CSVMapping = .init(), name: String? = nil) throws -> [Trace] {
        let url = URL(fileURLWithPath: path)
        guard ["csv", "tsv", "txt"].contains(url.pathExtension.lowercased()) else {
            return [try load(path: path, cleaning: cleaning, csv: csv, name: name)]
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw TraceReadError.io("cannot read \(path): \(error.localizedDescription)") }
        let tracks = try CSVTraceReader.readTracks(decodeText(data), mapping: csv)
        let display = name ?? url.lastPathComponent
        if tracks.count == 1 { return [cleaning.clean(tracks[0].trace, name: display, format: "csv")] }
        return tracks.map { cleaning.clean($0.trace, name: "\(display)#\($0.track)", format: "csv") }
    }

    /// UTF-8, falling back to Latin-1 so a stray byte never loses a whole file.
    static func decodeText(_ data: Data) -> String {
        String(data: data, encoding: .utf8) ?? String(decoding: data.map { $0 }, as: Unicode.ASCII.self)
    }

    /// Expands folders (recursively, known extensions only) and `*`/`?` globs in the last path component,
    /// sorted so a batch is deterministic.
    public static func expand(_ inputs: [String]) throws -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for input in inputs {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: input, isDirectory: &isDir) {
                if isDir.boolValue {
                    out += traceFiles(in: input)
                } else {
                    out.append(input)
                }
            } else if input.contains("*") || input.contains("?") {
                let dir = (input as NSString).deletingLastPathComponent
                let pattern = (input as NSString).lastPathComponent
                let names = (try? fm.contentsOfDirectory(atPath: dir.isEmpty ? "." : dir)) ?? []
                let matches = names.filter { glob(pattern, $0) }.sorted().map { dir.isEmpty ? $0 : (dir as NSString).appendingPathComponent($0) }
                if matches.isEmpty { throw TraceReadError.io("no trace matches \(input)") }
                out += matches
            } else {
                throw TraceReadError.io("no such trace file or folder: \(input)")
            }
        }
        return out
    }

    /// The trace files under a folder, sorted by path. Symbolic links are followed — to files and to folders (a
    /// dataset laid out as links to where its people's folders really are) — and a folder reached again through a
    /// link loop is not walked twice.
    static func traceFiles(in directory: String) -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        var walked: Set<String> = []
        func walk(_ folder: String) {
            guard walked.insert((folder as NSString).resolvingSymlinksInPath).inserted,
                let names = try? fm.contentsOfDirectory(atPath: folder)
            else { return }
            for name in names {
                let path = (folder as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                // fileExists follows links; a broken one is skipped.
                guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    walk(path)
                } else if extensions.contains((name as NSString).pathExtension.lowercased()), name != "labels.txt" {
                    found.append(path)
                }
            }
        }
        walk(directory)
        return found.sorted()
    }

    static func glob(_ pattern: String, _ name: String) -> Bool {
        let p = Array(pattern)
        let n = Array(name)
        func match(_ i: Int, _ j: Int) -> Bool {
            if i == p.count { return j == n.count }
            if p[i] == "*" { return (j...n.count).contains { match(i + 1, $0) } }
            guard j < n.count, p[i] == "?" || p[i] == n[j] else { return false }
            return match(i + 1, j + 1)
        }
        return match(0, 0)
    }
}
