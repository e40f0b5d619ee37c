import FuzzSupport
import TraceReplay

/// What every trace reader must give for any bytes, and what cleaning must make of it (TraceLoader always cleans
/// what it reads): fixes on the globe, consistent part counts, and a cleaned trace whose segments are non-empty
/// and time-ordered with finite times, as `Trace` documents.
public func checkTrace(_ raw: RawTrace, format: String) {
    for fix in raw.fixes {
        require(
            fix.latitude.isFinite && (-90...90).contains(fix.latitude) && fix.longitude.isFinite
                && (-180...180).contains(fix.longitude), "\(format) reader gave a fix off the globe: \(fix)")
    }
    require(
        raw.parts >= 0 && raw.emptyParts >= 0 && raw.emptyParts <= raw.parts && raw.skipped >= 0,
        "\(format) reader counts: parts \(raw.parts), empty \(raw.emptyParts), skipped \(raw.skipped)")
    let trace = TraceCleaning().clean(raw, name: "fuzz", format: format)
    require(
        trace.report.points == raw.fixes.count && trace.fixCount <= raw.fixes.count,
        "cleaning reports \(trace.report.points) points and keeps \(trace.fixCount) of \(raw.fixes.count)")
    for segment in trace.segments {
        require(!segment.isEmpty, "cleaning left an empty segment")
        require(segment.allSatisfy { $0.time.isFinite }, "cleaning kept a non-finite time: \(segment.map(\.time))")
        require(zip(segment, segment.dropFirst()).allSatisfy { $0.time <= $1.time }, "segment not time-ordered: \(segment.map(\.time))")
    }
}
