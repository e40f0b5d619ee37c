extension StringProtocol {
    /// The text as it may appear in a message for a person: control characters, line separators and bidirectional
    /// overrides written out (`\n`, `\u{1B}`, `\u{202E}`), so that a value from a file cannot move a terminal's cursor,
    /// recolour it, rewrite what was printed before or reorder a line; and cut to `limit` characters with an ellipsis,
    /// so that a huge value never floods a message. `keepingLineBreaks` leaves `\n` as it is, for multi-line messages.
    package func forMessage(limit: Int? = 80, keepingLineBreaks: Bool = false) -> String {
        var cut = Substring(self)
        var clipped = false
        if let limit, let end = cut.index(cut.startIndex, offsetBy: limit, limitedBy: cut.endIndex), end < cut.endIndex {
            cut = cut[..<end]
            clipped = true
        }
        var out = ""
        if cut.unicodeScalars.allSatisfy({ !$0.needsEscapeInMessage }) {
            out = String(cut)
        } else {
            out.reserveCapacity(cut.utf8.count + 8)
            for scalar in cut.unicodeScalars {
                guard scalar.needsEscapeInMessage, !(keepingLineBreaks && scalar == "\n") else {
                    out.unicodeScalars.append(scalar)
                    continue
                }
                switch scalar {
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            }
        }
        return clipped ? out + "…" : out
    }
}

extension String {
    /// At most `limit` characters and no control characters: how a value from a file goes into an issue message.
    func clipped(_ limit: Int = 80) -> String { forMessage(limit: limit) }
}

extension Unicode.Scalar {
    /// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional marks, embeddings, overrides
    /// and isolates (the "Trojan Source" characters).
    var needsEscapeInMessage: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
