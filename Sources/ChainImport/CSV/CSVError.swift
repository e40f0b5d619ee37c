/// Why a CSV stream could not be read at all (as opposed to a row that is rejected).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A quoted field was still open at the end of the input: everything after `line` would be swallowed.
    case unterminatedQuote(line: Int)
    /// A quoted field spans several lines and the record outgrew the line limit: a quote that is never closed where it
    /// should be, about to swallow the rest of the file. (A long record on one line is a rejected row instead.)
    case runawayQuote(line: Int, limit: Int)
    /// The header line is longer than the line limit: most likely not a CSV file, or one without line breaks.
    case headerTooLong(limit: Int)
    case emptyFile
    case unsupportedEncoding(String)
    /// The first bytes are not text: what the file looks like instead (`FileSignature`).
    case notText(looksLike: String)
    /// The header is one column on `delimiter` but splits into `columns` on `better`: the wrong `--delimiter`.
    case headerNotSplit(delimiter: String, better: String, columns: Int)
    /// `--strict-utf8`: a byte sequence that is not UTF-8.
    case invalidUTF8(line: Int, column: String)

    public var description: String {
        switch self {
        case .unterminatedQuote(let line):
            "line \(line): a quoted field is never closed (unbalanced \")"
        case .runawayQuote(let line, let limit):
            "line \(line): a quoted field runs over several lines and past \(limit) bytes (--max-line-bytes): an unbalanced \" quote?"
        case .headerTooLong(let limit):
            "line 1: the header line is longer than \(limit) bytes (--max-line-bytes): not a CSV file, or one without line breaks?"
        case .emptyFile: "the file is empty (no header line)"
        case .unsupportedEncoding(let what): "unsupported encoding: \(what); convert the file to UTF-8"
        case .notText(let what): "not a CSV or GeoJSON text file: it looks like \(what)"
        case .headerNotSplit(let delimiter, let better, let columns):
            "line 1: the header does not split on '\(delimiter)' (the delimiter chosen); on '\(better)' it has \(columns) "
                + "columns: pass --delimiter '\(better)' (or leave the delimiter out to detect it)"
        case .invalidUTF8(let line, let column):
            "line \(line): the \(column) column is not valid UTF-8 (--strict-utf8); fix the bytes, or import without --strict-utf8 "
                + "to replace them with U+FFFD (each such row is warned), or pass --encoding windows-1252 if the file is not UTF-8"
        }
    }
}
