/// How big a region each location gets. Every threshold lives here (see README, "Radius policy").
///
/// Order of precedence: an explicit radius on the location, then the network's default radius,
/// then the large-area rule for large-area networks, then density tiers by the number of other
/// locations (of any network) within `densityProbeMeters` of the location.
public struct RadiusPolicy: Sendable, Hashable {
    /// The neighbourhood in which density is counted (1 km).
    public var densityProbeMeters: Double = 1_000
    /// At least this many neighbours within the probe: dense urban.
    public var denseMinNeighbors = 20
    /// At least this many (and fewer than `denseMinNeighbors`): suburban. Fewer: rural.
    public var suburbanMinNeighbors = 5
    /// Dense urban radii shrink from `dense.upperBound` at `denseMinNeighbors` to `dense.lowerBound` at `denseSaturation` neighbours.
    public var dense: ClosedRange<Double> = 30...100
    public var denseSaturation = 60
    /// Suburban radii shrink from 300 m at `suburbanMinNeighbors` to 100 m just below `denseMinNeighbors`.
    public var suburban: ClosedRange<Double> = 100...300
    /// Rural radii shrink from 500 m with no neighbour to 300 m just below `suburbanMinNeighbors`.
    public var rural: ClosedRange<Double> = 300...500
    /// Large-area venues (theme parks, airports): the venue's own radius clamped to this range.
    public var largeArea: ClosedRange<Double> = 500...2_000
    /// A large-area location without a venue size.
    public var largeAreaDefault: Double = 1_000
    /// Venues wider than `largeArea.upperBound` are covered by 7 overlapping circles (a centre and a ring of six)
    /// of radius venue/2; venues are capped at twice the largest circle.
    public var splitCircleCount = 7

    public static let standard = RadiusPolicy()

    public init() {}

    /// Why a region got its radius.
    public enum Rule: UInt8, Sendable, CaseIterable {
        case explicit, networkDefault, largeArea, splitVenue, dense, suburban, rural, merged

        public var name: String {
            switch self {
            case .explicit: "explicit"
            case .networkDefault: "network-default"
            case .largeArea: "large-area"
            case .splitVenue: "split-venue"
            case .dense: "dense"
            case .suburban: "suburban"
            case .rural: "rural"
            case .merged: "merged"
            }
        }
    }

    /// The radius of a location's region (for split venues: the whole venue's radius) and the rule that chose it.
    public func radius(explicit: Double?, networkDefault: Double?, isLargeArea: Bool, venueRadius: Double?,
                       neighbors: Int) -> (meters: Double, rule: Rule) {
        if let explicit, explicit > 0 { return (explicit, .explicit) }
        if let networkDefault, networkDefault > 0 { return (networkDefault, .networkDefault) }
        if isLargeArea {
            guard let venue = venueRadius, venue > 0 else { return (largeAreaDefault, .largeArea) }
            if venue > largeArea.upperBound { return (min(venue, 2 * largeArea.upperBound), .splitVenue) }
            return (min(max(venue, largeArea.lowerBound), largeArea.upperBound), .largeArea)
        }
        func interpolate(_ range: ClosedRange<Double>, _ n: Int, from lo: Int, to hi: Int) -> Double {
            let t = hi > lo ? Double(min(max(n, lo), hi) - lo) / Double(hi - lo) : 0
            return range.upperBound - t * (range.upperBound - range.lowerBound)
        }
        if neighbors >= denseMinNeighbors {
            return (interpolate(dense, neighbors, from: denseMinNeighbors, to: denseSaturation), .dense)
        }
        if neighbors >= suburbanMinNeighbors {
            return (interpolate(suburban, neighbors, from: suburbanMinNeighbors, to: denseMinNeighbors - 1), .suburban)
        }
        return (interpolate(rural, neighbors, from: 0, to: suburbanMinNeighbors - 1), .rural)
    }

    /// How many neighbours the density count needs to see before the answer cannot change.
    var densityCountCap: Int { max(denseSaturation, denseMinNeighbors) }
}
