/// One record of a CSV file: its fields as byte ranges of one buffer, and the line it starts on.
///
/// The tokenizer reuses the buffer for the next record, so a record is only valid inside the
/// callback that receives it; copy out what you keep.
public struct CSVRecord: Sendable {
    /// The bytes of every field, back to back, quotes and escapes already removed.
    public internal(set) var bytes: [UInt8] = []
    /// `ends[i]` is the offset in `bytes` just past field `i`.
    public internal(set) var ends: [Int] = []
    /// The 1-based physical line the record starts on (a quoted field may span several lines).
    public internal(set) var line = 1
    /// Set for a record longer than the tokenizer's `maxLineBytes`: its length in bytes. Its fields were never kept
    /// (`count` is 0), so that one runaway line cannot take memory in proportion to its length.
    public internal(set) var overlongBytes: Int64?

    public init() {}

    public var count: Int { ends.count }

    /// The raw bytes of field `index`; empty for an index past the end (short rows).
    public func field(_ index: Int) -> ArraySlice<UInt8> {
        guard index < ends.count else { return [] }
        return bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Field `index` as UTF-8 text (invalid bytes replaced); for tests and headers, not for data.
    public func string(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

    /// All fields as UTF-8 text.
    public var strings: [String] { (0..<count).map(string) }
}
