/// The locations one selection may still read (`EngineConfiguration.visitBudget`), refilled once for a tier whose
/// pass spent it all without a bound.
struct VisitAllowance {
    private(set) var left: Int
    private(set) var spent = 0
    private(set) var refillable = true

    init(left: Int) { self.left = left }

    mutating func spend(_ visits: Int) {
        spent += visits
        left -= min(visits, left)
    }

    mutating func refill(_ visits: Int) {
        left += visits
        refillable = false
    }
}
