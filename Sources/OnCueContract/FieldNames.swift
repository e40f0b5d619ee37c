/// How a body's member names are matched to a type's fields when a client writes them another way: `userNetworks`,
/// `user-networks`, `UserNetworks` and `user_network` all mean `user_networks`. A member that is such a near miss of a
/// known field is refused naming the field it meant — ignored, the request would be answered as if the client had not
/// asked (a phone watching the wrong stores without a word) — while a member far from every field (a newer client's
/// addition) may be let through.
public enum FieldNames {
    /// The known field `name` most likely meant, when it is not one itself: the same letters whatever their case and
    /// separators (`_`, `-`, space, none), or within one edit of a field (two for names of eight letters or more).
    public static func nearMiss(_ name: String, among known: [String]) -> String? {
        guard !known.contains(name) else { return nil }
        let folded = fold(name)
        if let same = known.first(where: { fold($0) == folded }) { return same }
        let allowed = folded.count >= 8 ? 2 : 1
        guard folded.count >= 4 else { return nil }
        let scored = known.map { ($0, distance(Array(folded), Array(fold($0)), limit: allowed)) }.filter { $0.1 <= allowed }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The known name closest to `name` however far (for an error that must name a valid choice), nil when `known` is
    /// empty or `name` is one of them.
    public static func nearest(_ name: String, among known: [String]) -> String? {
        guard !known.contains(name) else { return nil }
        if let near = nearMiss(name, among: known) { return near }
        let folded = Array(fold(name))
        return known.min { a, b in
            let (da, db) = (
                distance(folded, Array(fold(a)), limit: Int.max - 1), distance(folded, Array(fold(b)), limit: Int.max - 1)
            )
            return da != db ? da < db : a < b
        }
    }

    /// Lowercased, without separators.
    static func fold(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !"_- ".unicodeScalars.contains($0) })
    }

    /// Levenshtein distance with adjacent transpositions, given up beyond `limit` (returns `limit + 1`).
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], previous2[j - 2] + 1) }
            }
            previous2 = previous
            previous = row
        }
        return min(previous[b.count], limit + 1)
    }
}
