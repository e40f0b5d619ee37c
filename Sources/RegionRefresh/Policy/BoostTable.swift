/// Boosts that reorder regions within a tier: ranking is by boundary distance ÷ (visit boost × time boost).
///
/// | category            | local hours      | boost |
/// |---------------------|------------------|-------|
/// | coffee              | 06:00–10:59      | 1.5   |
/// | grocery, wholesale  | 17:00–20:59      | 1.5   |
/// | fast-food, restaurant | 11:00–13:59, 17:00–19:59 | 1.3 |
/// | pharmacy            | 17:00–20:59      | 1.2   |
/// | library             | 10:00–17:59      | 1.2   |
/// | anything else / no `local_time` | —    | 1.0   |
///
/// Visit boost: `1 + min(visits, visitCap) / visitCap` — up to 2× for a network visited `visitCap` times or more.
public struct BoostTable: Sendable, Hashable {
    public struct Window: Sendable, Hashable {
        public var categories: Set<String>
        public var hours: Set<Int>
        public var boost: Double
        public init(categories: Set<String>, hours: Set<Int>, boost: Double) {
            self.categories = categories
            self.hours = hours
            self.boost = boost
        }
    }

    public var windows: [Window]
    public var visitCap: Int

    public init(windows: [Window], visitCap: Int = 20) {
        self.windows = windows
        self.visitCap = max(1, visitCap)
    }

    public static let standard = BoostTable(windows: [
        Window(categories: ["coffee"], hours: Set(6...10), boost: 1.5),
        Window(categories: ["grocery", "wholesale", "supermarket"], hours: Set(17...20), boost: 1.5),
        Window(categories: ["fast-food", "restaurant"], hours: Set(11...13).union(17...19), boost: 1.3),
        Window(categories: ["pharmacy"], hours: Set(17...20), boost: 1.2),
        Window(categories: ["library"], hours: Set(10...17), boost: 1.2),
    ])

    /// The largest boost this table can give: bounds used when pruning the index search.
    public var maxTimeBoost: Double { windows.map(\.boost).max().map { max(1, $0) } ?? 1 }

    public func timeBoost(category: String?, hour: Int?) -> Double {
        guard let category, let hour else { return 1 }
        var best = 1.0
        for w in windows where w.categories.contains(category) && w.hours.contains(hour) { best = max(best, w.boost) }
        return best
    }

    public func visitBoost(visits: Int) -> Double {
        1 + Double(min(max(visits, 0), visitCap)) / Double(visitCap)
    }
}
