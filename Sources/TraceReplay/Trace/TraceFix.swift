/// One position of a recorded trace: the ground truth the virtual phone moves along.
public struct TraceFix: Sendable, Hashable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// Horizontal accuracy recorded with the fix (metres), when the file had one.
    public var accuracy: Double?
    /// Metres; nil when absent or marked invalid (GeoLife's -777 ft).
    public var altitude: Double?
    /// Transport mode from GeoLife `labels.txt`, when a label covers the fix.
    package var mode: String?
    /// True when the file had no time for this fix and the reader synthesised one from a travel speed.
    package var timeSynthesised: Bool

    public init(
        time: Double, latitude: Double, longitude: Double, accuracy: Double? = nil, altitude: Double? = nil,
        mode: String? = nil, timeSynthesised: Bool = false
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
        self.mode = mode
        self.timeSynthesised = timeSynthesised
    }
}

/// A fix as a reader found it, before cleaning: the time may be missing.
public struct RawFix: Sendable, Hashable {
    public var time: Double?
    public var latitude: Double
    public var longitude: Double
    public var accuracy: Double?
    public var altitude: Double?

    public init(time: Double?, latitude: Double, longitude: Double, accuracy: Double? = nil, altitude: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.altitude = altitude
    }
}

/// What a reader returns: fixes in file order plus format facts the cleaner reports.
public struct RawTrace: Sendable {
    public var fixes: [RawFix]
    /// Track/route/line parts in the file and how many were empty.
    public var parts: Int
    public var emptyParts: Int
    /// GPX waypoints that were not used as the trace because the file had tracks or routes.
    package var ignoredWaypoints: Int
    /// Rows or elements the reader could not use, with a reason (first few only).
    public var skipped: Int
    package var warnings: [String]
    /// Why the file ends before its end (a truncated GPX): the fixes are those read before the cut.
    package var cutOff: String?
    /// GeoLife transport-mode labels, applied after cleaning.
    public var labels: [ModeLabel]

    package init(
        fixes: [RawFix] = [], parts: Int = 0, emptyParts: Int = 0, ignoredWaypoints: Int = 0, skipped: Int = 0,
        warnings: [String] = [], labels: [ModeLabel] = []
    ) {
        self.fixes = fixes
        self.parts = parts
        self.emptyParts = emptyParts
        self.ignoredWaypoints = ignoredWaypoints
        self.skipped = skipped
        self.warnings = warnings
        self.labels = labels
    }
}

/// A transport-mode interval from GeoLife `labels.txt` (times in seconds since 1970, inclusive).
public struct ModeLabel: Sendable, Hashable {
    public var start: Double
    public var end: Double
    package var mode: String

    public init(start: Double, end: Double, mode: String) {
        self.start = start
        self.end = end
        self.mode = mode
    }
}
