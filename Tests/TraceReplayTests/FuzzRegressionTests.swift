import Foundation
import Testing

@testable import TraceReplay

/// The trace inputs the libFuzzer campaign found (Fuzz/Regressions, RELIABILITY.md), replayed with the fuzzers'
/// property, and the defects behind them stated as plain tests.
@Suite("Fuzz regressions: trace readers")
struct TraceFuzzRegressionTests {
    static func inputs(_ target: String) -> [URL] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    /// `Trace`'s promise: non-empty segments of finite, non-decreasing times.
    static func expectOrdered(_ trace: Trace, _ what: String) {
        for segment in trace.segments {
            #expect(!segment.isEmpty, "\(what): an empty segment")
            #expect(segment.allSatisfy { $0.time.isFinite }, "\(what): a time that is not finite: \(segment.map(\.time))")
            #expect(zip(segment, segment.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(what): \(segment.map(\.time))")
        }
    }

    @Test func theRegressionsAreThere() {
        for target in ["GPXFuzzer", "PLTFuzzer", "CSVTraceFuzzer"] { #expect(!Self.inputs(target).isEmpty, "\(target)") }
    }

    @Test(arguments: inputs("PLTFuzzer"))
    func pltTracesCleanToOrderedSegments(file: URL) throws {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        var raw = PLTReader.read(text)
        raw.labels = PLTReader.readLabels(text)
        Self.expectOrdered(TraceCleaning().clean(raw, name: "fuzz", format: "plt"), file.lastPathComponent)
    }

    @Test(arguments: inputs("CSVTraceFuzzer"))
    func csvTracesCleanToOrderedSegments(file: URL) throws {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        for mapping in [CSVMapping(), CSVMapping(hasHeader: false), CSVMapping(separator: ";"), CSVMapping(timeFormat: "seconds")] {
            guard let raw = try? CSVTraceReader.read(text, mapping: mapping) else { continue }
            Self.expectOrdered(TraceCleaning().clean(raw, name: "fuzz", format: "csv"), file.lastPathComponent)
        }
    }

    /// The defect behind both: an untimed point far from its timed neighbours got a synthesised time past the next
    /// timed point, and the trace was not sorted because the file's own times were in order.
    @Test func synthesisedTimesThatOverrunTheNextFixAreSorted() {
        var raw = RawTrace()
        raw.fixes = [
            RawFix(time: 1000, latitude: 40, longitude: -74), RawFix(time: nil, latitude: 41, longitude: -74),
            RawFix(time: 1010, latitude: 40.0001, longitude: -74),
        ]
        raw.parts = 1
        let trace = TraceCleaning().clean(raw, name: "t", format: "csv")
        Self.expectOrdered(trace, "hand-made")
        #expect(trace.report.sorted)
        #expect(trace.report.warnings.contains { $0.contains("synthesised") })
    }

    /// Foundation's XMLParser traps on an element name that is not UTF-8; the reader refuses such a file instead.
    @Test(arguments: inputs("GPXFuzzer"))
    func gpxThatIsNotUTF8IsRefusedNotACrash(file: URL) throws {
        #expect(throws: TraceReadError.self) { try GPXReader.read(try Data(contentsOf: file)) }
    }

    /// XMLParser (Linux) reads the null data pointer libxml2 gives a processing instruction without data.
    @Test func gpxWithADataLessProcessingInstructionIsRefused() throws {
        let gpx = #"<gpx version="1.1"><?oncue?><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#
        #expect(throws: TraceReadError.self) { try GPXReader.read(Data(gpx.utf8)) }
        let withData = #"<gpx version="1.1"><?oncue note?><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#
        #expect(try GPXReader.read(Data(withData.utf8)).fixes.count == 1)
    }

    /// A time column can hold any number; a report line that formats it must not trap converting it to seconds.
    @Test func timesBeyondAnyDateAreWrittenAsNumbers() {
        #expect(TraceTime.format(1e300) == "1e+300 s")
        #expect(TraceTime.format(-Double.infinity) == "-inf s")
        #expect(TraceTime.format(1_577_934_245) == "2020-01-02T03:04:05Z")
    }

    @Test func gpxDeclaringLatin1IsRead() throws {
        var bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><gpx><trk><name>Caf"#.utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array(#"</name><trkseg><trkpt lat="60.17" lon="24.94"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#.utf8)
        let raw = try GPXReader.read(Data(bytes))
        #expect(raw.fixes.count == 1 && raw.fixes[0].latitude == 60.17)
    }
}
