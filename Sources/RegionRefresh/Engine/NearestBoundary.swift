import Geo

/// Finds the smallest d − r (distance to entering the region) among a tree's locations that are not
/// already monitored: the refresh distance D of one card network.
struct NearestBoundary: KDTreeVisitor {
    let maxRadius: Double
    /// Sorted location numbers that are monitored (selected or merged into a selected region).
    let covered: [UInt32]
    var best: Double
    var boundSquared: Double
    var reachMeters: Double { best }

    init(maxRadius: Double, covered: [UInt32], ceiling: Double) {
        self.maxRadius = maxRadius
        self.covered = covered
        self.best = ceiling
        self.boundSquared = UnitVector.chordSquared(meters: ceiling + maxRadius)
    }

    mutating func visit(_ record: UnsafePointer<TreePoint>, chordSquared: Double) {
        let point = record.pointee
        let key = UnitVector.meters(chordSquared: chordSquared) - Double(point.radius)
        guard key < best, !isCovered(point.member) else { return }
        best = key
        let reach = best + maxRadius
        boundSquared = reach <= 0 ? -1 : UnitVector.chordSquared(meters: reach)
    }

    private func isCovered(_ member: UInt32) -> Bool {
        var lo = 0
        var hi = covered.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if covered[mid] < member { lo = mid + 1 } else { hi = mid }
        }
        return lo < covered.count && covered[lo] == member
    }
}
