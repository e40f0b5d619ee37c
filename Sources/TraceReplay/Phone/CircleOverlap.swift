import Foundation

/// The fraction of a fix's accuracy circle (radius `a`) that lies inside a fence (radius `r`) at centre distance `d`:
/// Android's geofence transitions compare this with its entry/exit thresholds.
public func accuracyOverlapFraction(distance d: Double, accuracy a: Double, fenceRadius r: Double) -> Double {
    guard a > 0 else { return d <= r ? 1 : 0 }
    if d >= a + r { return 0 }
    if d <= abs(r - a) { return r >= a ? 1 : (r * r) / (a * a) }
    let a2 = a * a, r2 = r * r, d2 = d * d
    let alpha = acos(min(1, max(-1, (d2 + a2 - r2) / (2 * d * a))))
    let beta = acos(min(1, max(-1, (d2 + r2 - a2) / (2 * d * r))))
    let k = max(0, (-d + a + r) * (d + a - r) * (d - a + r) * (d + a + r))
    let area = a2 * alpha + r2 * beta - 0.5 * k.squareRoot()
    return min(1, max(0, area / (.pi * a2)))
}
