/// A reader for the YAML subset `openapi.yaml` is written in (block mappings and sequences, plain
/// and quoted scalars, flow sequences, folded scalars), so the contract test needs no YAML package.
indirect enum YAML: Equatable {
    case map([(String, YAML)])
    case list([YAML])
    case scalar(String)

    static func == (a: YAML, b: YAML) -> Bool {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)): x == y
        case (.list(let x), .list(let y)): x == y
        case (.map(let x), .map(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: false
        }
    }

    subscript(key: String) -> YAML? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    var keys: [String] {
        guard case .map(let pairs) = self else { return [] }
        return pairs.map(\.0)
    }

    var string: String? {
        guard case .scalar(let s) = self else { return nil }
        return s
    }

    var items: [YAML] {
        guard case .list(let items) = self else { return [] }
        return items
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ text: String) throws -> YAML {
        var lines: [(indent: Int, text: String)] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = raw.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            lines.append((raw.count - trimmed.count, String(trimmed)))
        }
        var parser = Parser(lines: lines)
        return try parser.block(indent: 0)
    }

    private struct Parser {
        var lines: [(indent: Int, text: String)]
        var index = 0

        mutating func block(indent: Int) throws -> YAML {
            guard index < lines.count else { return .scalar("") }
            return lines[index].text.hasPrefix("- ") || lines[index].text == "-"
                ? try list(indent: lines[index].indent)
                : try map(indent: lines[index].indent)
        }

        mutating func map(indent: Int) throws -> YAML {
            var pairs: [(String, YAML)] = []
            while index < lines.count, lines[index].indent == indent, !lines[index].text.hasPrefix("- ") {
                let line = lines[index].text
                guard let colon = Self.keyColon(line) else { throw ParseError(description: "expected 'key:' in '\(line)'") }
                let key = Self.unquote(String(line[..<colon]))
                let rest = line[line.index(after: colon)...].trimmingSpaces
                index += 1
                if rest.isEmpty {
                    if index < lines.count, lines[index].indent > indent || (lines[index].indent == indent && lines[index].text.hasPrefix("- ")) {
                        pairs.append((key, try block(indent: lines[index].indent)))
                    } else {
                        pairs.append((key, .scalar("")))
                    }
                } else if rest == ">-" || rest == ">" || rest == "|" || rest == "|-" {
                    var parts: [String] = []
                    while index < lines.count, lines[index].indent > indent {
                        parts.append(lines[index].text)
                        index += 1
                    }
                    pairs.append((key, .scalar(parts.joined(separator: rest.hasPrefix("|") ? "\n" : " "))))
                } else {
                    pairs.append((key, Self.value(rest)))
                }
            }
            return .map(pairs)
        }

        mutating func list(indent: Int) throws -> YAML {
            var items: [YAML] = []
            while index < lines.count, lines[index].indent == indent, lines[index].text.hasPrefix("- ") {
                let content = String(lines[index].text.dropFirst(2))
                if Self.keyColon(content) != nil, !content.hasPrefix("\""), !content.hasPrefix("[") {
                    lines[index] = (indent + 2, content)
                    items.append(try map(indent: indent + 2))
                } else {
                    index += 1
                    items.append(Self.value(content))
                }
            }
            return .list(items)
        }

        /// The colon ending a mapping key (followed by a space or the end of the line), outside quotes.
        static func keyColon(_ line: String) -> String.Index? {
            var inQuotes = false
            var i = line.startIndex
            while i < line.endIndex {
                let c = line[i]
                if c == "\"" { inQuotes.toggle() }
                if c == ":" && !inQuotes {
                    let next = line.index(after: i)
                    if next == line.endIndex || line[next] == " " { return i }
                }
                i = line.index(after: i)
            }
            return nil
        }

        static func value(_ text: String) -> YAML {
            if text.hasPrefix("[") && text.hasSuffix("]") {
                let inner = text.dropFirst().dropLast().trimmingSpaces
                if inner.isEmpty { return .list([]) }
                return .list(inner.split(separator: ",").map { .scalar(unquote(String($0).trimmingSpaces)) })
            }
            return .scalar(unquote(text))
        }

        static func unquote(_ text: String) -> String {
            if text.count >= 2, (text.hasPrefix("\"") && text.hasSuffix("\"")) || (text.hasPrefix("'") && text.hasSuffix("'")) {
                return String(text.dropFirst().dropLast())
            }
            return text
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
