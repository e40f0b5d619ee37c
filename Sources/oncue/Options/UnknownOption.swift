import ArgumentParser
import ChainImport

/// The options a command's positional arguments caught. A command whose positionals are read with
/// `@Argument(parsing: .allUnrecognized)` (so that `-74.0` needs no quotes, or for the `db` commands' old positional
/// store) receives a mistyped option among them instead of the argument parser's "unknown option" error; this gives
/// that error back, with the nearest option the command has.
enum UnknownOption {
    /// Throws a usage error naming the first word before `--` that reads as an option: a leading minus followed by
    /// anything but a digit or a point (a negative number).
    static func check(_ arguments: [String], of command: any ParsableCommand.Type) throws {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        guard let word = arguments[..<end].first(where: isOptionLike) else { return }
        let name = String(word.prefix { $0 != "=" })
        var message = "unknown option '\(name.forMessage())'"
        if let near = nearest(to: name, among: options(of: command)) { message += "; did you mean '\(near)'?" }
        throw ValidationError(message)
    }

    static func isOptionLike(_ word: String) -> Bool {
        guard word.hasPrefix("-"), let next = word.dropFirst().first else { return false }
        return !next.isNumber && next != "."
    }

    /// The long options the command's help lists: what the command has, read from the same declarations.
    static func options(of command: any ParsableCommand.Type) -> [String] {
        var found: [String] = []
        for word in command.helpMessage(columns: 1_000).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }) {
            let name = word.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if name.hasPrefix("--"), name.count > 2, !found.contains(String(name)) { found.append(String(name)) }
        }
        return found
    }

    /// The option nearest `name` by edits (insert, delete, replace, swap two neighbours), if it is near enough to be
    /// what was meant: at most a third of the name's letters.
    static func nearest(to name: String, among options: [String]) -> String? {
        let limit = max(1, name.count / 3)
        let ranked = options.map { ($0, editDistance(Array(name), Array($0))) }.filter { $0.1 <= limit }
        return ranked.min { $0.1 < $1.1 }?.0
    }

    /// Optimal string alignment distance: Levenshtein with a swap of two neighbours as one edit (`fromat`, `format`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
