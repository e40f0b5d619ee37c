/// Why a CSV stream could not be read at all (as opposed to a row that is rejected).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A quoted field was still open at the end of the input: everything after `line` would be swallowed.
    case unterminatedQuote(line: Int)
    /// A field grew past the limit, almost always a stray quote that opened a field never closed.
    case fieldTooLong(line: Int, limit: Int)
    case emptyFile
    case unsupportedEncoding(String)

    public var description: String {
        switch self {
        case .unterminatedQuote(let line):
            "line \(line): a quoted field is never closed (unbalanced \")"
        case .fieldTooLong(let line, let limit):
            "line \(line): a field is longer than \(limit) bytes (probably an unbalanced \" quote)"
        case .emptyFile: "the file is empty (no header line)"
        case .unsupportedEncoding(let what): "unsupported encoding: \(what); convert the file to UTF-8"
        }
    }
}
