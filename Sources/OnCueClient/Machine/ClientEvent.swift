import Geo
import OnCueContract

/// What the phone's platform reports to the client: `ClientStateMachine.handle(_:at:)` takes one at a time, with the
/// time it happened.
public enum ClientEvent: Sendable, Hashable, Codable {
    /// The OS ran the app, and where it put the phone then (`CLLocationManager.location`, the fix of the wake).
    case woke(WakeReason, fix: LocationFix)
    /// The server answered the refresh the client asked for (`ClientAction.refresh`).
    case refreshSucceeded(RegionRefreshResponse)
    /// That refresh failed; `retryAfterSeconds` is the server's `Retry-After`, when it sent one.
    case refreshFailed(retryAfterSeconds: Double?)
    /// The OS reports the phone entered a monitored region (by the identifier `ClientAction.startMonitoring` gave).
    case regionEntered(String)
    /// The OS reports the phone stayed in a region registered to notify on dwell.
    case regionDwelled(String)
    /// The OS reports the phone left a region, and its last known position then (to ask the server from, when the
    /// region is the refresh region).
    case regionExited(String, lastKnown: LocationFix?)
    /// The answer to `ClientAction.requestState`: inside, outside, or unknown (nil).
    case regionState(String, inside: Bool?)
    /// The OS refused to monitor a region (`monitoringDidFailFor`, `GEOFENCE_TOO_MANY_GEOFENCES`).
    case monitoringFailed(String)
    /// A location update while the client wants them (`wantsLocationUpdates`).
    case location(LocationUpdate)
    /// The answer to `ClientAction.requestLocation` (nil: the platform could not locate the phone).
    case locationAnswered(PreciseFix?)
    /// The motion sensor's activity changed (`CMMotionActivity`, Activity Recognition's transitions).
    case motion(walking: Bool)
    /// A wake the client scheduled (`ClientAction.scheduleWake`) is due.
    case wakeDue(Int)
    /// The user took location permission away, or gave it back.
    case permission(granted: Bool)
    /// The app stops the client (the user signed out; the replay's trace ended): following ends, regions are released.
    case stopped

    /// Why the OS ran the app.
    public enum WakeReason: String, Sendable, Hashable, Codable {
        /// Launched, or relaunched after the OS ended it.
        case launch
        /// A significant location change (iOS).
        case significantChange
        /// A visit (iOS `CLVisit`).
        case visit
        /// A periodic background job (Android's WorkManager).
        case periodic
        /// In the foreground, at every fix.
        case foreground
    }
}

/// A position the platform reported: where, how well, and the unit vector the client's distances use.
public struct LocationFix: Sendable, Hashable, Codable {
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// Horizontal accuracy, metres.
    public var accuracy: Double
    public var unit: UnitVector

    public init(time: Double, latitude: Double, longitude: Double, accuracy: Double) {
        self.init(
            time: time, latitude: latitude, longitude: longitude, accuracy: accuracy, unit: UnitVector(latitude: latitude, longitude: longitude))
    }

    /// With the unit vector already at hand (the replay computes it once per fix for every strategy).
    package init(time: Double, latitude: Double, longitude: Double, accuracy: Double, unit: UnitVector) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.unit = unit
    }
}

/// A fix of the app's own precise location (GPS).
public struct PreciseFix: Sendable, Hashable, Codable {
    public var position: UnitVector
    /// Metres; 0 when the platform gave none.
    public var accuracy: Double

    public init(position: UnitVector, accuracy: Double) {
        self.position = position
        self.accuracy = accuracy
    }

    public init(latitude: Double, longitude: Double, accuracy: Double) {
        self.init(position: UnitVector(latitude: latitude, longitude: longitude), accuracy: accuracy)
    }
}

/// One location update while the client follows a store: the OS's low-power position (which costs no GPS), the
/// precise fix when GPS is on, and a stream number the platform changes when its fixes were interrupted (the app was
/// suspended; a logger stopped recording), since fixes across a break say nothing of one stay.
public struct LocationUpdate: Sendable, Hashable, Codable {
    public var coarse: UnitVector
    public var precise: PreciseFix?
    public var stream: Int32

    public init(coarse: UnitVector, precise: PreciseFix?, stream: Int32 = 0) {
        self.coarse = coarse
        self.precise = precise
        self.stream = stream
    }
}
