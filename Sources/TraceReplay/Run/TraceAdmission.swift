/// Which imperfect trace files a replay takes. A replay measures people's real movements, so what the reader had to
/// make up or leave out is either refused or said on the terminal, never only in `summary.json`.
public struct TraceAdmission: Sendable, Hashable {
    /// Replay traces with points that have no time, timing them at `trace.synthesised_speed` (`--invent-times`).
    /// Off by default: a walk timed by a made-up speed measures stays that never happened.
    public var inventTimes: Bool
    /// Refuse a file cut off before its end instead of replaying the points before the cut (`--refuse-truncated`).
    public var refuseCutOff: Bool

    public init(inventTimes: Bool = false, refuseCutOff: Bool = false) {
        self.inventTimes = inventTimes
        self.refuseCutOff = refuseCutOff
    }

    /// Why `trace` is refused, or nil when it is taken.
    func refusal(of trace: Trace, cleaning: TraceCleaning) -> String? {
        let r = trace.report
        if let cut = r.cutOff, refuseCutOff { return "\(cut); refused (--refuse-truncated)" }
        if r.pointsWithoutTime > 0 && !inventTimes {
            let which =
                r.pointsWithoutTime == r.points
                ? "none of its \(r.points) points has a time" : "\(r.pointsWithoutTime) of its \(r.points) points have no time"
            return "\(which): pass --invent-times to replay it with times made up at "
                + "\(cleaning.synthesisedSpeedMetersPerSecond) m/s (trace.synthesised_speed_meters_per_second), or add the times to the file"
        }
        return nil
    }

    /// What the terminal must say of a trace that is taken although it is imperfect.
    func warnings(for trace: Trace, cleaning: TraceCleaning) -> [String] {
        var out: [String] = []
        if trace.report.cutOff != nil, let cut = trace.report.warnings.first { out.append(cut) }
        if trace.report.pointsWithoutTime > 0 {
            out.append(
                "\(trace.report.pointsWithoutTime) of \(trace.report.points) points have no time; times made up at "
                    + "\(cleaning.synthesisedSpeedMetersPerSecond) m/s (--invent-times)")
        }
        return out
    }
}
