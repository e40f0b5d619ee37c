import RegionRefresh

extension RadiusPolicy {
    /// The policy with every radius it chooses multiplied by `factor` (the tiers and large-area ranges; explicit and
    /// network radii stay as the data says): what the engine would answer if its radii were that much larger.
    package func scaled(by factor: Double) -> RadiusPolicy {
        guard factor != 1 else { return self }
        var p = self
        func scale(_ r: ClosedRange<Double>) -> ClosedRange<Double> { (r.lowerBound * factor)...(r.upperBound * factor) }
        p.dense = scale(dense)
        p.suburban = scale(suburban)
        p.rural = scale(rural)
        p.largeArea = scale(largeArea)
        p.largeAreaDefault = largeAreaDefault * factor
        return p
    }
}
