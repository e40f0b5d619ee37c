/// What the phone's platform allows and does, given to the client rather than assumed: the app passes its platform's
/// values (the study passes its OS model's).
public struct PlatformLimits: Codable, Sendable, Hashable {
    /// Regions one app may monitor at once: iOS 20, Android 100. The client never asks for more.
    public var maxRegions: Int
    /// Regions smaller than this are below what the platform detects reliably (about 100 m on both); `+clamp` and
    /// `staged` register no smaller.
    public var minReliableRadiusMeters: Double
    /// Whether adding a region the phone is already inside reports an entry (Android's `INITIAL_TRIGGER_ENTER`);
    /// where it does not (iOS), the client asks for the state of each new store region.
    public var reportsEntryWhenAddedInside: Bool
    /// Whether store regions notify on a dwell transition (Android's `GEOFENCE_TRANSITION_DWELL` with a loitering
    /// delay) rather than on entry; an entry reported for such a region is then not a visit.
    public var storeRegionsNotifyOnDwell: Bool

    public init(maxRegions: Int, minReliableRadiusMeters: Double, reportsEntryWhenAddedInside: Bool, storeRegionsNotifyOnDwell: Bool = false) {
        self.maxRegions = maxRegions
        self.minReliableRadiusMeters = minReliableRadiusMeters
        self.reportsEntryWhenAddedInside = reportsEntryWhenAddedInside
        self.storeRegionsNotifyOnDwell = storeRegionsNotifyOnDwell
    }

    /// `CLLocationManager`: 20 regions, entries only for crossings after monitoring starts.
    public static let iOS = PlatformLimits(maxRegions: 20, minReliableRadiusMeters: 100, reportsEntryWhenAddedInside: false)
    /// `GeofencingClient` with `INITIAL_TRIGGER_ENTER`: 100 geofences.
    public static let android = PlatformLimits(maxRegions: 100, minReliableRadiusMeters: 100, reportsEntryWhenAddedInside: true)
}
