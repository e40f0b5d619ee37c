import Foundation

/// The mean of per-seed values with its 95 % confidence interval (Student's t, n − 1 degrees of freedom).
package struct Interval: Sendable, Hashable, Codable {
    package var mean: Double
    package var low: Double
    package var high: Double
    /// Seeds that had a value (a seed without card moments has no recall); for intervals over people, the people.
    package var n: Int

    /// nil when no seed had a value. One value: an interval of zero width.
    package init?(_ values: [Double]) {
        let v = values.filter(\.isFinite)
        guard !v.isEmpty else { return nil }
        let n = Double(v.count)
        let mean = v.reduce(0, +) / n
        var half = 0.0
        if v.count > 1 {
            let variance = v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
            half = Self.t975(degrees: v.count - 1) * (variance / n).squareRoot()
        }
        self.mean = mean
        self.low = mean - half
        self.high = mean + half
        self.n = v.count
    }

    /// An interval found otherwise (a bootstrap's percentiles around its estimate).
    package init(estimate: Double, low: Double, high: Double, n: Int) {
        mean = estimate
        self.low = low
        self.high = high
        self.n = n
    }

    /// This interval cut to `range`: a t-interval over a few seeds can reach past what the metric can be (a recall of
    /// 103.8 %, a negative number of refresh calls), which says nothing more than the range's edge does.
    package func clipped(to range: ClosedRange<Double>) -> Interval {
        var i = self
        i.low = min(max(low, range.lowerBound), range.upperBound)
        i.high = max(min(high, range.upperBound), range.lowerBound)
        return i
    }

    /// The two-sided 95 % quantile of Student's t distribution.
    static func t975(degrees: Int) -> Double {
        let table: [Double] = [
            12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
        ]
        guard degrees >= 1 else { return .nan }
        return degrees <= table.count ? table[degrees - 1] : 1.96
    }
}
