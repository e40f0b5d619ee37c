import Geo

/// Finds the smallest d − r (distance to entering the region) among a tree's locations that are not
/// already monitored: the refresh distance D of one card network.
struct NearestBoundary: KDTreeVisitor {
    let maxRadius: Double
    /// See `RankedCollector.radiusFloor`.
    let radiusFloor: Double
    /// Sorted location numbers that are monitored (selected or merged into a selected region).
    let covered: [UInt32]
    var best: Double
    /// Below this the search may stop: every answer the refresh distance gives is the same for any D under it.
    let settledBelow: Double
    var boundSquared: Double
    /// Locations looked at.
    private(set) var visits = 0
    /// The tree's nodes know the policy's radii, not the floor (see `RankedCollector.reachMeters`).
    var reachMeters: Double { best + radiusFloor }

    init(maxRadius: Double, covered: [UInt32], ceiling: Double, radiusFloor: Double = 0, settledBelow: Double = -.infinity) {
        self.maxRadius = max(maxRadius, radiusFloor)
        self.radiusFloor = radiusFloor
        self.covered = covered
        self.best = ceiling
        self.settledBelow = settledBelow
        self.boundSquared = UnitVector.chordSquared(meters: ceiling + self.maxRadius)
    }

    mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
        visits &+= 1
        let point = record.pointee
        let key = UnitVector.meters(chordSquared: chordSquared) - max(Double(point.radius), radiusFloor)
        guard key < best, !isCovered(point.member) else { return }
        best = key
        let reach = best + maxRadius
        boundSquared = reach <= 0 || best < settledBelow ? -1 : UnitVector.chordSquared(meters: reach)
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
