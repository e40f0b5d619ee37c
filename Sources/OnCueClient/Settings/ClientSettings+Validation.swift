/// Values the client cannot work with, refused before a machine is made of them.
extension ClientSettings {
    /// The settings, or the first problem with them named by its study key (`app.gps_confirm_seconds`,
    /// `network.backoff_max_seconds`).
    public func validated(for platform: PlatformLimits) throws(ClientSettingsError) -> ClientSettings {
        func check(_ ok: Bool, _ message: @autoclosure () -> String) throws(ClientSettingsError) { if !ok { throw .invalid(message()) } }
        let numbers: [(String, Double)] = [
            ("app.refresh_interval_seconds", app.refreshIntervalSeconds), ("app.min_refresh_interval_seconds", app.minRefreshIntervalSeconds),
            ("app.fixed_minimum_meters", app.fixedMinimumMeters), ("app.cooldown_seconds", app.cooldownSeconds),
            ("app.confirm_seconds", app.confirmSeconds), ("app.staged_wide_min_meters", app.stagedWideMinMeters),
            ("app.gps_fix_seconds", app.gpsFixSeconds), ("app.gps_confirm_seconds", app.gpsConfirmSeconds),
            ("app.gps_max_seconds", app.gpsMaxSeconds), ("app.gps_approach_meters_per_second", app.gpsApproachMetersPerSecond),
            ("app.gps_rest_while_staying_seconds", app.gpsRestWhileStayingSeconds),
            ("app.gps_trust_os_after_seconds", app.gpsTrustOsAfterSeconds),
            ("network.backoff_initial_seconds", backoffInitialSeconds), ("network.backoff_max_seconds", backoffMaxSeconds),
            ("store_radius_meters", storeRadiusMeters), ("nominal_accuracy_meters", nominalAccuracyMeters),
        ]
        for (name, value) in numbers { try check(value.isFinite && value >= 0, "\(name) must be a number >= 0 (got \(value))") }
        try check(app.radiusKm > 0 && app.radiusKm <= 200, "app.radius_km must be within (0, 200] (got \(app.radiusKm))")
        try check(
            app.stagedSlots >= 0 && app.stagedSlots < platform.maxRegions,
            "app.staged_slots must be within 0..<\(platform.maxRegions), the platform's region limit (got \(app.stagedSlots))")
        try check(platform.maxRegions >= 1, "the platform's region limit must be at least 1")
        return self
    }
}
