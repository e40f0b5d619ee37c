/// Keys as Swift names them (`radiusKm`): decode with `.convertFromSnakeCase` to read the study's `radius_km`, as
/// `ClientSettings.decode(json:)` does. A key left out keeps its default, so a file names only what it changes.
extension AppSettings: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case radiusKm, refreshIntervalSeconds, minRefreshIntervalSeconds, fixedMinimumMeters, cooldownSeconds, cooldownScope
        case confirmSeconds, includeOtherNetworks, stagedSlots, stagedWideMinMeters, gpsFixSeconds, gpsConfirmSeconds
        case gpsMaxSeconds, gpsApproachMetersPerSecond, gpsStayEvidence, gpsRestWhileStayingSeconds
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func read<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: key) { value = v }
        }
        self.init()
        try read(.radiusKm, &radiusKm)
        try read(.refreshIntervalSeconds, &refreshIntervalSeconds)
        try read(.minRefreshIntervalSeconds, &minRefreshIntervalSeconds)
        try read(.fixedMinimumMeters, &fixedMinimumMeters)
        try read(.cooldownSeconds, &cooldownSeconds)
        try read(.cooldownScope, &cooldownScope)
        try read(.confirmSeconds, &confirmSeconds)
        try read(.includeOtherNetworks, &includeOtherNetworks)
        try read(.stagedSlots, &stagedSlots)
        try read(.stagedWideMinMeters, &stagedWideMinMeters)
        try read(.gpsFixSeconds, &gpsFixSeconds)
        try read(.gpsConfirmSeconds, &gpsConfirmSeconds)
        try read(.gpsMaxSeconds, &gpsMaxSeconds)
        try read(.gpsApproachMetersPerSecond, &gpsApproachMetersPerSecond)
        try read(.gpsStayEvidence, &gpsStayEvidence)
        try read(.gpsRestWhileStayingSeconds, &gpsRestWhileStayingSeconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(radiusKm, forKey: .radiusKm)
        try c.encode(refreshIntervalSeconds, forKey: .refreshIntervalSeconds)
        try c.encode(minRefreshIntervalSeconds, forKey: .minRefreshIntervalSeconds)
        try c.encode(fixedMinimumMeters, forKey: .fixedMinimumMeters)
        try c.encode(cooldownSeconds, forKey: .cooldownSeconds)
        try c.encode(cooldownScope, forKey: .cooldownScope)
        try c.encode(confirmSeconds, forKey: .confirmSeconds)
        try c.encode(includeOtherNetworks, forKey: .includeOtherNetworks)
        try c.encode(stagedSlots, forKey: .stagedSlots)
        try c.encode(stagedWideMinMeters, forKey: .stagedWideMinMeters)
        try c.encode(gpsFixSeconds, forKey: .gpsFixSeconds)
        try c.encode(gpsConfirmSeconds, forKey: .gpsConfirmSeconds)
        try c.encode(gpsMaxSeconds, forKey: .gpsMaxSeconds)
        try c.encode(gpsApproachMetersPerSecond, forKey: .gpsApproachMetersPerSecond)
        try c.encode(gpsStayEvidence, forKey: .gpsStayEvidence)
        try c.encode(gpsRestWhileStayingSeconds, forKey: .gpsRestWhileStayingSeconds)
    }
}
