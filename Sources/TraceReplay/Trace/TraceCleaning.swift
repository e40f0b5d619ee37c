import Geo

/// How a raw trace is cleaned. Every threshold is a scenario parameter (`trace` in the scenario file).
public struct TraceCleaning: Sendable, Hashable, Codable {
    /// Fixes implying more than this from the previous kept fix are dropped (default 250 km/h).
    package var maxSpeedKmh: Double = 250
    /// A gap longer than this splits the trace into segments (default 2 h: "multi-hour").
    package var splitGapSeconds: Double = 7_200
    /// Travel speed used to synthesise missing times (default 1.4 m/s, walking).
    package var synthesisedSpeedMetersPerSecond: Double = 1.4
    /// After this many consecutive drops the jump filter trusts the new position (the old anchor was the outlier),
    /// and starts a new segment there.
    package var maxConsecutiveDrops: Int = 10
    /// Gaps above this are counted in the report's `gaps_over_5_min` (file order).
    static let reportGapSeconds = 300.0

    public init() {}

    /// Cleans `raw` into a `Trace`: synthesise missing times, sort, drop duplicates and jumps, split at long gaps.
    public func clean(_ raw: RawTrace, name: String, format: String) -> Trace {
        var report = TraceReport(file: name, format: format)
        report.points = raw.fixes.count
        report.parts = raw.parts
        report.emptyParts = raw.emptyParts
        report.ignoredWaypoints = raw.ignoredWaypoints
        report.skippedRows = raw.skipped
        report.warnings = raw.warnings
        if let cut = raw.cutOff {
            report.cutOff = cut
            report.warnings.insert("\(cut); the \(raw.fixes.count) points before the cut are replayed", at: 0)
        }
        if raw.fixes.isEmpty {
            report.warnings.append("no points: nothing to replay")
            return Trace(name: name, segments: [], report: report)
        }
        if raw.emptyParts > 0 { report.warnings.append("\(raw.emptyParts) empty track/route parts") }

        measureFileOrder(raw.fixes, into: &report)
        let fixes = timedInOrder(raw.fixes, report: &report)
        var segments = segmented(fixes, report: &report)
        if !raw.labels.isEmpty { Self.applyLabels(raw.labels, to: &segments) }
        report.segments = segments.count
        report.fixes = segments.reduce(0) { $0 + $1.count }
        return Trace(name: name, segments: segments, report: report)
    }

    /// Records the file-order facts (untimed points, time going backwards, gaps, spikes), measured before anything is
    /// changed: the report describes the file as it came.
    private func measureFileOrder(_ raw: [RawFix], into report: inout TraceReport) {
        let maxSpeed = maxSpeedKmh / 3.6
        var previous: RawFix?
        for fix in raw {
            if fix.time == nil { report.pointsWithoutTime += 1 }
            if let p = previous, let t0 = p.time, let t1 = fix.time {
                let dt = t1 - t0
                if dt < 0 { report.timeGoesBackwards += 1 }
                if dt > Self.reportGapSeconds { report.gapsOver5Min += 1 }
                report.maxGapMinutes = max(report.maxGapMinutes, dt / 60)
                if dt > 0, Sphere.distance(lat1: p.latitude, lon1: p.longitude, lat2: fix.latitude, lon2: fix.longitude) / dt > maxSpeed {
                    report.spikesInFileOrder += 1
                }
            }
            if fix.time != nil { previous = fix }
        }
        report.maxGapMinutes = (report.maxGapMinutes * 10).rounded() / 10
    }

    /// Every fix with a time (synthesised where missing), sorted by time when the file's order, or the synthesised
    /// times, go backwards. Needs `measureFileOrder` to have counted `pointsWithoutTime` and `timeGoesBackwards`.
    private func timedInOrder(_ raw: [RawFix], report: inout TraceReport) -> [TraceFix] {
        var fixes = synthesiseTimes(raw)
        if report.pointsWithoutTime > 0 {
            report.warnings.append(
                "\(report.pointsWithoutTime) points have no time; times synthesised at \(synthesisedSpeedMetersPerSecond) m/s and flagged")
        }
        // Synthesised times can overrun the next timed fix (points far apart between two close times), so order is
        // checked on the times as synthesised, not only on the file's.
        let synthesisedOutOfOrder = report.timeGoesBackwards == 0 && zip(fixes, fixes.dropFirst()).contains { $0.time > $1.time }
        if synthesisedOutOfOrder {
            report.warnings.append("times synthesised for untimed points run past the next timed point; fixes sorted by time")
        }
        if report.timeGoesBackwards > 0 || synthesisedOutOfOrder {
            report.sorted = true
            if report.timeGoesBackwards > 0 {
                report.warnings.append(
                    "time goes backwards \(report.timeGoesBackwards) times (concatenated or overlapping tracks); fixes sorted by time")
            }
            // Stable: fixes with equal times keep file order, so exact copies end up adjacent.
            fixes = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        return fixes
    }

    /// Drops exact duplicates and jumps faster than `maxSpeedKmh`, and splits at gaps longer than `splitGapSeconds`
    /// and where the jump filter re-anchors. `fixes` are in time order.
    private func segmented(_ fixes: [TraceFix], report: inout TraceReport) -> [[TraceFix]] {
        let maxSpeed = maxSpeedKmh / 3.6
        var segments: [[TraceFix]] = []
        var current: [TraceFix] = []
        var lastKept: TraceFix?
        var drops = 0
        for fix in fixes {
            guard let last = lastKept else {
                current.append(fix)
                lastKept = fix
                continue
            }
            if fix.time == last.time && fix.latitude == last.latitude && fix.longitude == last.longitude {
                report.duplicatesRemoved += 1
                continue
            }
            let dt = fix.time - last.time
            if dt > splitGapSeconds {
                report.gapSplits += 1
                segments.append(current)
                current = [fix]
                lastKept = fix
                drops = 0
                continue
            }
            let d = Sphere.distance(lat1: last.latitude, lon1: last.longitude, lat2: fix.latitude, lon2: fix.longitude)
            if d > maxSpeed * dt && d > 0 {
                drops += 1
                if drops <= maxConsecutiveDrops {
                    report.jumpsDropped += 1
                    continue
                }
                report.warnings.append("re-anchored after \(maxConsecutiveDrops) consecutive jumps at \(TraceTime.format(fix.time))")
                segments.append(current)
                current = [fix]
                lastKept = fix
                drops = 0
                continue
            }
            drops = 0
            current.append(fix)
            lastKept = fix
        }
        if !current.isEmpty { segments.append(current) }
        if report.duplicatesRemoved > 0 { report.warnings.append("\(report.duplicatesRemoved) duplicate fixes removed") }
        if report.jumpsDropped > 0 { report.warnings.append("\(report.jumpsDropped) fixes implying more than \(Int(maxSpeedKmh)) km/h dropped") }
        if report.gapSplits > 0 { report.warnings.append("\(report.gapSplits) gaps longer than \(Int(splitGapSeconds / 60)) min split the trace") }
        return segments
    }

    /// Sets each fix's transport mode from the label that covers its time, if any.
    private static func applyLabels(_ labels: [ModeLabel], to segments: inout [[TraceFix]]) {
        let labels = labels.sorted { $0.start < $1.start }
        for s in segments.indices {
            for i in segments[s].indices {
                let t = segments[s][i].time
                // Labels are few (hundreds) and sorted; a linear scan from a binary-search start is plenty.
                var lo = 0
                var hi = labels.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if labels[mid].start <= t { lo = mid + 1 } else { hi = mid }
                }
                var j = lo - 1
                while j >= 0 {
                    if labels[j].end >= t {
                        segments[s][i].mode = labels[j].mode
                        break
                    }
                    if t - labels[j].start > 86_400 * 7 { break }
                    j -= 1
                }
            }
        }
    }

    /// Fills missing times: between two timed fixes, proportionally to distance when that is plausible;
    /// otherwise forward/backward from the nearest timed fix at the synthesis speed. A file with no times
    /// at all starts at 2000-01-01T00:00:00Z.
    func synthesiseTimes(_ raw: [RawFix]) -> [TraceFix] {
        var out = raw.map {
            TraceFix(
                time: $0.time ?? .nan, latitude: $0.latitude, longitude: $0.longitude, accuracy: $0.accuracy,
                altitude: $0.altitude, timeSynthesised: $0.time == nil)
        }
        guard out.contains(where: { $0.timeSynthesised }) else { return out }
        let speed = max(0.1, synthesisedSpeedMetersPerSecond)
        func dist(_ a: Int, _ b: Int) -> Double {
            Sphere.distance(lat1: out[a].latitude, lon1: out[a].longitude, lat2: out[b].latitude, lon2: out[b].longitude)
        }
        let timed = out.indices.filter { !out[$0].timeSynthesised }
        guard let firstTimed = timed.first else {
            out[0].time = 946_684_800
            for i in 1..<out.count { out[i].time = out[i - 1].time + dist(i - 1, i) / speed }
            return out
        }
        for i in stride(from: firstTimed - 1, through: 0, by: -1) { out[i].time = out[i + 1].time - dist(i, i + 1) / speed }
        for (a, b) in zip(timed, timed.dropFirst()) where b > a + 1 {
            var along: [Double] = [0]
            for i in (a + 1)...b { along.append(along.last! + dist(i - 1, i)) }
            let span = out[b].time - out[a].time
            let total = along.last!
            let proportional = span > 0 && total > 0 && total / span <= speed * 20
            for i in (a + 1)..<b {
                out[i].time = proportional ? out[a].time + span * along[i - a] / total : out[i - 1].time + dist(i - 1, i) / speed
            }
        }
        if let lastTimed = timed.last, lastTimed + 1 < out.count {
            for i in (lastTimed + 1)..<out.count { out[i].time = out[i - 1].time + dist(i - 1, i) / speed }
        }
        return out
    }
}
