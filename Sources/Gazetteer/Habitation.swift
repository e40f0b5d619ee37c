/// Whether a point is somewhere a store can stand: near a populated place or on (or just off) land. Used to tell a
/// swapped or sign-flipped coordinate pair from a real remote store: a pair whose reading as given is nowhere, while
/// another reading of it is somewhere, was written wrong.
public enum Habitation {
    /// Land within this distance counts: a harbour front, a pier or an island too small for the 1:110m outlines is
    /// off their coast by up to this much.
    public static let coastKilometres = 25.0
    /// Antarctica is land with no store on it: a point there is a swapped pair far more often than a research station.
    public static let uninhabitedLand: Set<String> = ["ATA"]

    /// True when a populated place's reach (`PopulatedPlaces`, several kilometres around the smallest village) or
    /// inhabited land within `coastKilometres` covers the point.
    /// The outlines are asked first: they decode in a fraction of the places' time, and most points are on land, so
    /// a short import never builds the places' grid.
    public static func isInhabited(latitude: Double, longitude: Double) -> Bool {
        if CountryOutlines.shared.isNearLand(
            latitude: latitude, longitude: longitude, withinKilometres: coastKilometres, excluding: uninhabitedLand)
        {
            return true
        }
        return PopulatedPlaces.shared.density(latitude: latitude, longitude: longitude) > 0
    }
}
