import Foundation
import Testing

@testable import TraceReplay

/// What a replay does with imperfect files: a cut-off GPX replays the points before the cut (or is refused on
/// request), a file without times is refused unless times may be made up, and each is said on the terminal.
@Suite("imperfect trace files")
struct TraceAdmissionTests {
    static func gpx(points: Int, timed: Bool = true) -> String {
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg>"# + "\n"
        for i in 0..<points {
            let time = timed ? "<time>2025-06-01T10:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z</time>" : ""
            s += #"<trkpt lat="\#(60.17 + Double(i) * 0.0001)" lon="24.94">\#(time)</trkpt>"# + "\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    @Test func aCutOffGPXKeepsThePointsBeforeTheCut() throws {
        let whole = Self.gpx(points: 100)
        let cut = String(whole.prefix(whole.count * 2 / 3))
        let raw = try GPXReader.read(Data(cut.utf8))
        #expect(raw.cutOff != nil && raw.fixes.count > 50 && raw.fixes.count < 100, "\(raw.fixes.count)")
        let trace = TraceCleaning().clean(raw, name: "cut.gpx", format: "gpx")
        #expect(trace.report.warnings.first?.contains("points before the cut are replayed") == true)
        #expect(TraceAdmission().refusal(of: trace, cleaning: TraceCleaning()) == nil)
        #expect(TraceAdmission(refuseCutOff: true).refusal(of: trace, cleaning: TraceCleaning())?.contains("--refuse-truncated") == true)
        #expect(throws: TraceReadError.self) { try GPXReader.read(Data(whole.prefix(60).utf8)) }
        #expect(try GPXReader.read(Data(whole.utf8)).cutOff == nil)
    }

    @Test func untimedPointsNeedLeaveToInventTimes() throws {
        let trace = TraceCleaning().clean(try GPXReader.read(Data(Self.gpx(points: 10, timed: false).utf8)), name: "n.gpx", format: "gpx")
        let refusal = try #require(TraceAdmission().refusal(of: trace, cleaning: TraceCleaning()))
        #expect(refusal.contains("none of its 10 points has a time") && refusal.contains("--invent-times"), "\(refusal)")
        let allowed = TraceAdmission(inventTimes: true)
        #expect(allowed.refusal(of: trace, cleaning: TraceCleaning()) == nil)
        #expect(allowed.warnings(for: trace, cleaning: TraceCleaning()).first?.contains("times made up") == true)
    }
}
