import Foundation
import Gazetteer

/// How big a region each location gets. Every threshold lives here (see README, "Radius policy").
///
/// Order of precedence: an explicit radius on the location, then the network's default radius, then the large-area
/// rule for large-area networks, then the tiers of the product document, chosen by the density of the *place*:
/// people per km² from the world's populated places (`PopulatedPlaces`). The store's own contents (locations of any
/// network within 1 km) only move the radius within its tier, so importing another chain never moves a store across
/// tiers.
public struct RadiusPolicy: Sendable, Hashable {
    /// At least this many people per km²: dense urban (a city centre: Midtown Manhattan, the Loop, central Beijing).
    public var denseMinPeoplePerKm2 = 6_000.0
    /// At least this many (and fewer than dense): suburban (Naperville, Versailles, Espoo). Fewer: rural.
    public var suburbanMinPeoplePerKm2 = 300.0
    /// Within a tier the radius falls with the logarithm of the place density, from the tier's largest radius at its
    /// lowest density to its smallest at: `denseSaturationPeoplePerKm2` (dense), the dense threshold (suburban), the
    /// suburban threshold (rural, counted from `ruralFloorPeoplePerKm2`).
    public var denseSaturationPeoplePerKm2 = 30_000.0
    public var ruralFloorPeoplePerKm2 = 10.0
    /// Locations of any network within `densityProbeMeters` move the radius towards the tier's smallest, by up to
    /// `storeShare` of the tier's range at `storeSaturation` neighbours: a street of shops wants tighter regions than
    /// a lone store in the same neighbourhood.
    public var densityProbeMeters: Double = 1_000
    public var storeSaturation = 60
    public var storeShare = 0.3
    public var dense: ClosedRange<Double> = 30...100
    public var suburban: ClosedRange<Double> = 100...300
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
        case explicit, networkDefault, largeArea, splitVenue, dense, suburban, rural
        /// The point's own uncertainty (a coarse point, a geocoder's street): larger than any other rule's radius.
        case uncertain
        /// A region several locations share (a response's, never a location's: `TreePoint` keeps a location's rule in
        /// three bits, so every rule a location can have comes before this one).
        case merged

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
            case .uncertain: "uncertain"
            }
        }
    }

    /// The density tier of a place.
    public func tier(peoplePerKm2 density: Double) -> Rule {
        density >= denseMinPeoplePerKm2 ? .dense : density >= suburbanMinPeoplePerKm2 ? .suburban : .rural
    }

    /// The radius of a location's region (for split venues: the whole venue's radius) and the rule that chose it.
    /// `placeDensity` is people per km² around the location; `neighbors` the store's locations within 1 km. A region is
    /// never smaller than the point's `uncertainty` (a point rounded to two decimals may be 0.55 km from its store: a
    /// tighter fence could sit where no phone at the store will ever be, and the coverage guarantee would count it).
    public func radius(
        explicit: Double?, networkDefault: Double?, isLargeArea: Bool, venueRadius: Double?,
        placeDensity: Double, neighbors: Int, uncertainty: Double? = nil
    ) -> (meters: Double, rule: Rule) {
        let chosen = radiusByRule(
            explicit: explicit, networkDefault: networkDefault, isLargeArea: isLargeArea, venueRadius: venueRadius,
            placeDensity: placeDensity, neighbors: neighbors)
        if let uncertainty, uncertainty > chosen.meters, uncertainty.isFinite { return (uncertainty, .uncertain) }
        return chosen
    }

    private func radiusByRule(
        explicit: Double?, networkDefault: Double?, isLargeArea: Bool, venueRadius: Double?,
        placeDensity: Double, neighbors: Int
    ) -> (meters: Double, rule: Rule) {
        if let explicit, explicit > 0 { return (explicit, .explicit) }
        if let networkDefault, networkDefault > 0 { return (networkDefault, .networkDefault) }
        if isLargeArea {
            guard let venue = venueRadius, venue > 0 else { return (largeAreaDefault, .largeArea) }
            if venue > largeArea.upperBound { return (min(venue, 2 * largeArea.upperBound), .splitVenue) }
            return (min(max(venue, largeArea.lowerBound), largeArea.upperBound), .largeArea)
        }
        let rule = tier(peoplePerKm2: placeDensity)
        let (range, low, high): (ClosedRange<Double>, Double, Double) =
            switch rule {
            case .dense: (dense, denseMinPeoplePerKm2, denseSaturationPeoplePerKm2)
            case .suburban: (suburban, suburbanMinPeoplePerKm2, denseMinPeoplePerKm2)
            default: (rural, ruralFloorPeoplePerKm2, suburbanMinPeoplePerKm2)
            }
        // 0 at the tier's lowest density, 1 at its highest; then the store's neighbours add their share.
        let placed = min(1, max(0, log(max(placeDensity, low) / low) / log(high / low)))
        let stores = storeShare * Double(min(max(neighbors, 0), storeSaturation)) / Double(storeSaturation)
        let t = min(1, placed + stores)
        return (range.upperBound - t * (range.upperBound - range.lowerBound), rule)
    }

    /// How many neighbours the density count needs to see before the answer cannot change.
    var densityCountCap: Int { storeSaturation }
}
