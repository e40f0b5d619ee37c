import ChainImport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes text to standard output or error without buffering surprises between the two.
public struct FileHandleOutput: Sendable {
    public let handle: FileHandle

    public init(handle: FileHandle) { self.handle = handle }

    public static let standardOutput = FileHandleOutput(handle: .standardOutput)
    public static let standardError = FileHandleOutput(handle: .standardError)

    public func write(_ text: String) { handle.write(Data(text.utf8)) }

    public var isTerminal: Bool { isatty(handle.fileDescriptor) != 0 }
}

/// Formats rows as an aligned text table (numbers right-aligned). Cells hold names and messages from files and
/// stores, so their control characters are written out (`forMessage`): a cell cannot drive the terminal.
public func textTable(_ header: [String], _ rawRows: [[String]]) -> String {
    let rows = rawRows.map { $0.map { $0.forMessage(limit: nil) } }
    var widths = header.map(\.count)
    for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
    func isNumber(_ s: String) -> Bool { !s.isEmpty && Double(s.replacingOccurrences(of: ",", with: "")) != nil }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { i, cell in
            let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
            return isNumber(cell) ? pad + cell : cell + pad
        }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
}

/// JSON with sorted keys and no escaped slashes, as every `--json` output of the CLI.
public func jsonString<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// A count with thousands separators (1,000,000).
public func formatCount(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
        if i > 0 && i % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + String(out.reversed())
}
