/// A snapshot of a running import, delivered every `ImportOptions.progressInterval` seconds.
package struct ImportProgress: Sendable, Equatable {
    package var fileName: String
    package var fileIndex: Int
    package var fileCount: Int
    /// Data rows read so far, over all files.
    package var rows: Int
    /// Bytes read so far, over all files.
    package var bytes: Int64
    /// Total bytes of all files, when every size is known.
    package var totalBytes: Int64?
    package var elapsedSeconds: Double
    /// What the import does after reading its rows (bringing the spatial index in step, committing), which
    /// takes a while for large files; nil while rows are being read.
    package var stage: String?
    /// What `rows` counts: data rows, or addresses while geocoding (then `bytes` and `totalBytes` count addresses too).
    package var unit = "rows"

    package init(fileName: String, fileIndex: Int, fileCount: Int, rows: Int, bytes: Int64, totalBytes: Int64?, elapsedSeconds: Double) {
        self.fileName = fileName
        self.fileIndex = fileIndex
        self.fileCount = fileCount
        self.rows = rows
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.elapsedSeconds = elapsedSeconds
    }

    package var rowsPerSecond: Double { elapsedSeconds > 0 ? Double(rows) / elapsedSeconds : 0 }
    /// 0…1 by bytes, when the total is known.
    package var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytes) / Double(totalBytes))
    }
    /// Seconds left at the current byte rate.
    package var etaSeconds: Double? {
        guard let fraction, fraction > 0, elapsedSeconds > 0 else { return nil }
        return elapsedSeconds * (1 - fraction) / fraction
    }
}
