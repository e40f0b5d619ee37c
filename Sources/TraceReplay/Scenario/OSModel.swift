import OnCueClient

/// How the phone's OS monitors regions and wakes the app. Where each default comes from is in the README's
/// OS-model table (simulations/README.md); the names here say what each number does. What an app is told of its
/// platform (`PlatformLimits`, the client library's) is where the iOS and Android profiles start: their region limit,
/// reliable radius and initial entry are those values, and the rest is what the simulator adds.
package struct OSModel: Codable, Sendable, Hashable {
    /// How the OS decides a crossing.
    package enum Detection: String, Codable, Sendable, Hashable, CaseIterable {
        /// iOS: past the boundary by a cushion, for the dwell time.
        case cushion
        /// Android: the share of the smaller circle (fix accuracy or fence) inside the other.
        case overlap
        /// Ideal: exact and instant.
        case exact
    }

    /// Regions the app may monitor; starting one more fails with an error event.
    package var maxRegions: Int
    package var detection: Detection
    /// iOS: the position must be this far past the boundary (capped at `maxCushionFraction` × radius)...
    package var cushionMeters: Double
    package var maxCushionFraction: Double
    /// ...for this long before an entry or exit fires.
    package var dwellSeconds: Double
    /// Delay between the OS deciding and the app hearing (uniform in [min, max], seeded). The OS's own check
    /// cadence comes on top of this.
    package var detectionDelayMinSeconds: Double
    package var detectionDelayMaxSeconds: Double
    /// Android: the share of the smaller circle (fix accuracy circle or fence) that must overlap the other for an
    /// entry, and at most for an exit, when the accuracy circle is the smaller one...
    package var entryOverlap: Double
    package var exitOverlap: Double
    /// ...and when the accuracy circle is the larger one (a coarse fix around a small fence).
    package var entryOverlapCoarseFix: Double
    package var exitOverlapCoarseFix: Double
    /// Android `GEOFENCE_TRANSITION_DWELL`: when > 0 the app registers its store fences for DWELL with this loitering
    /// delay and notifies on it instead of on ENTER (a walk-by that does not stay gives no alert). 0: ENTER.
    package var loiteringDelaySeconds: Double
    /// Android `INITIAL_TRIGGER_ENTER`: adding a fence the phone is inside fires an entry at the next check.
    /// iOS: false (the app must ask for the region's state).
    package var initialTriggerEntry: Bool
    /// The OS takes a position for its fences this often while the phone moves, and this often when it has been
    /// still (0: at every trace fix). Android's notification responsiveness is a floor on both.
    package var fenceCheckMovingSeconds: Double
    package var fenceCheckStationarySeconds: Double
    package var responsivenessSeconds: Double
    /// Below this speed (true position since the previous check) the phone counts as still.
    package var movingSpeedMetersPerSecond: Double
    /// Regions smaller than this are below what the OS detects reliably; apps that follow the platform's advice
    /// register at least this (`+clamp`, `staged`), and `oracle-os` does.
    package var minReliableRadiusMeters: Double
    /// Significant-location-change wake-ups: at least this far and this long after the previous one.
    package var significantChange: Bool
    package var slcMinMeters: Double
    package var slcMinSeconds: Double
    /// Visit wake-ups (CLVisit): staying within `visitRadiusMeters` for `visitMinMinutes`. 0 disables.
    package var visitMinMinutes: Double
    package var visitRadiusMeters: Double
    /// A background job wakes the app this often (Android's WorkManager; 0 = never).
    package var periodicWakeSeconds: Double
    /// Background execution time per wake; a refresh slower than this is killed (0 = unlimited).
    package var backgroundSeconds: Double
    /// The app sees every fix (foreground / ideal).
    package var wakeOnEveryFix: Bool
    /// `+motion`: the motion sensor reports a change between walking and standing this late (assumed: Apple and
    /// Google publish no latency for `CMMotionActivity` or Activity Recognition).
    package var motionLatencySeconds: Double = 20

    /// What the app is told of this OS.
    package var platformLimits: PlatformLimits {
        PlatformLimits(
            maxRegions: maxRegions, minReliableRadiusMeters: minReliableRadiusMeters, reportsEntryWhenAddedInside: initialTriggerEntry,
            storeRegionsNotifyOnDwell: detection == .overlap && loiteringDelaySeconds > 0)
    }

    package static let ios = OSModel(
        maxRegions: PlatformLimits.iOS.maxRegions, detection: .cushion, cushionMeters: 200, maxCushionFraction: 0.5, dwellSeconds: 20,
        detectionDelayMinSeconds: 2, detectionDelayMaxSeconds: 10, entryOverlap: 0.85, exitOverlap: 0.15,
        entryOverlapCoarseFix: 0.75, exitOverlapCoarseFix: 0.25, loiteringDelaySeconds: 0,
        initialTriggerEntry: PlatformLimits.iOS.reportsEntryWhenAddedInside,
        fenceCheckMovingSeconds: 30, fenceCheckStationarySeconds: 180, responsivenessSeconds: 0, movingSpeedMetersPerSecond: 0.5,
        minReliableRadiusMeters: PlatformLimits.iOS.minReliableRadiusMeters, significantChange: true, slcMinMeters: 500, slcMinSeconds: 300,
        visitMinMinutes: 5,
        visitRadiusMeters: 100, periodicWakeSeconds: 0, backgroundSeconds: 10, wakeOnEveryFix: false)
    package static let android = OSModel(
        maxRegions: PlatformLimits.android.maxRegions, detection: .overlap, cushionMeters: 0, maxCushionFraction: 0, dwellSeconds: 0,
        detectionDelayMinSeconds: 1, detectionDelayMaxSeconds: 5, entryOverlap: 0.85, exitOverlap: 0.15,
        entryOverlapCoarseFix: 0.75, exitOverlapCoarseFix: 0.25, loiteringDelaySeconds: 0,
        initialTriggerEntry: PlatformLimits.android.reportsEntryWhenAddedInside,
        fenceCheckMovingSeconds: 60, fenceCheckStationarySeconds: 360, responsivenessSeconds: 0, movingSpeedMetersPerSecond: 0.5,
        minReliableRadiusMeters: PlatformLimits.android.minReliableRadiusMeters, significantChange: false, slcMinMeters: 500, slcMinSeconds: 300,
        visitMinMinutes: 0,
        visitRadiusMeters: 100, periodicWakeSeconds: 900, backgroundSeconds: 10, wakeOnEveryFix: false)
    package static let ideal = OSModel(
        maxRegions: 1_000_000, detection: .exact, cushionMeters: 0, maxCushionFraction: 0, dwellSeconds: 0,
        detectionDelayMinSeconds: 0, detectionDelayMaxSeconds: 0, entryOverlap: 0.5, exitOverlap: 0.5,
        entryOverlapCoarseFix: 0.5, exitOverlapCoarseFix: 0.5, loiteringDelaySeconds: 0, initialTriggerEntry: true,
        fenceCheckMovingSeconds: 0, fenceCheckStationarySeconds: 0, responsivenessSeconds: 0, movingSpeedMetersPerSecond: 0.5,
        minReliableRadiusMeters: 0, significantChange: false, slcMinMeters: 0, slcMinSeconds: 0, visitMinMinutes: 0,
        visitRadiusMeters: 100, periodicWakeSeconds: 0, backgroundSeconds: 0, wakeOnEveryFix: true)
}
