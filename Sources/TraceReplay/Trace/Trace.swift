/// A cleaned trace: time-ordered segments without duplicates or impossible jumps, split at long gaps.
public struct Trace: Sendable {
    /// The file name (or a caller-chosen label) used in reports.
    public var name: String
    /// Every segment is time-ordered and non-empty; the phone keeps its state across segments.
    public var segments: [[TraceFix]]
    public var report: TraceReport

    package init(name: String, segments: [[TraceFix]], report: TraceReport) {
        self.name = name
        self.segments = segments
        self.report = report
    }

    /// All fixes of all segments in time order.
    public var fixes: [TraceFix] { segments.flatMap { $0 } }
    public var fixCount: Int { segments.reduce(0) { $0 + $1.count } }
    /// Seconds covered by the segments (gaps between segments excluded).
    package var activeSeconds: Double { segments.reduce(0) { $0 + (($1.last?.time ?? 0) - ($1.first?.time ?? 0)) } }
}

/// What a reader and the cleaner found in one file. Raw counts use file order, exactly as the file is.
public struct TraceReport: Sendable, Codable, Hashable {
    public var file: String
    public var format: String
    /// Fixes the reader found (before cleaning).
    public var points: Int = 0
    public var parts: Int = 0
    public var emptyParts: Int = 0
    package var ignoredWaypoints: Int = 0
    package var skippedRows: Int = 0
    /// Fixes without a time in the file; their time was synthesised from `synthesisedSpeed` and they are flagged.
    package var pointsWithoutTime: Int = 0
    /// Consecutive fixes (file order) whose time goes backwards; when > 0 the fixes were sorted.
    package var timeGoesBackwards: Int = 0
    /// Consecutive timestamped fixes (file order) implying more than the speed limit.
    package var spikesInFileOrder: Int = 0
    /// Consecutive timestamped fixes (file order) more than 5 minutes apart.
    package var gapsOver5Min: Int = 0
    package var maxGapMinutes: Double = 0
    public var sorted: Bool = false
    /// Fixes with the same time and position as an earlier one, removed.
    package var duplicatesRemoved: Int = 0
    /// Fixes implying more than the speed limit from the previous kept fix, dropped.
    package var jumpsDropped: Int = 0
    /// Gaps longer than the split threshold: each starts a new segment.
    package var gapSplits: Int = 0
    public var segments: Int = 0
    /// Fixes left after cleaning.
    public var fixes: Int = 0
    package var warnings: [String] = []
    /// The reader's account of a file cut off before its end (`RawTrace.cutOff`); also the first warning.
    package var cutOff: String?

    public init(file: String, format: String) {
        self.file = file
        self.format = format
    }

    enum CodingKeys: String, CodingKey {
        case file, format, points, parts, segments, fixes, warnings, sorted
        case emptyParts = "empty_parts"
        case ignoredWaypoints = "ignored_waypoints"
        case skippedRows = "skipped_rows"
        case pointsWithoutTime = "points_without_time"
        case timeGoesBackwards = "time_goes_backwards"
        case spikesInFileOrder = "spikes_in_file_order"
        case gapsOver5Min = "gaps_over_5_min"
        case maxGapMinutes = "max_gap_minutes"
        case duplicatesRemoved = "duplicates_removed"
        case jumpsDropped = "jumps_dropped"
        case gapSplits = "gap_splits"
        case cutOff = "cut_off"
    }
}
