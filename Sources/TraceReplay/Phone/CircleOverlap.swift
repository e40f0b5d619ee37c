import Foundation

/// The area shared by a fix's accuracy circle (radius `a`) and a fence (radius `r`) whose centres are `d` apart.
func circleOverlapArea(distance d: Double, accuracy a: Double, fenceRadius r: Double) -> Double {
    if d >= a + r { return 0 }
    if d <= abs(r - a) {
        let m = min(a, r)
        return .pi * m * m
    }
    let a2 = a * a
    let r2 = r * r
    let d2 = d * d
    let alpha = acos(min(1, max(-1, (d2 + a2 - r2) / (2 * d * a))))
    let beta = acos(min(1, max(-1, (d2 + r2 - a2) / (2 * d * r))))
    let k = max(0, (-d + a + r) * (d + a - r) * (d - a + r) * (d + a + r))
    return max(0, a2 * alpha + r2 * beta - 0.5 * k.squareRoot())
}

/// The fraction of a fix's accuracy circle that lies inside a fence.
package func accuracyOverlapFraction(distance d: Double, accuracy a: Double, fenceRadius r: Double) -> Double {
    guard a > 0 else { return d <= r ? 1 : 0 }
    return min(1, circleOverlapArea(distance: d, accuracy: a, fenceRadius: r) / (.pi * a * a))
}

/// The fraction of the smaller of the two circles that the other covers: what Android's geofence rule compares,
/// since a coarse fix around a small fence can never have most of its own circle inside it.
package func smallerCircleOverlapFraction(distance d: Double, accuracy a: Double, fenceRadius r: Double) -> Double {
    guard a > 0, r > 0 else { return d <= r ? 1 : 0 }
    let m = min(a, r)
    return min(1, circleOverlapArea(distance: d, accuracy: a, fenceRadius: r) / (.pi * m * m))
}
