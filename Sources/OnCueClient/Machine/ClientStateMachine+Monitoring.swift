import Geo
import OnCueContract

/// Which regions the client monitors: a refresh answer's regions as the strategy registers them (diffed against what
/// is monitored, or all stopped and started again), never more than the platform allows.
extension ClientStateMachine {
    /// The region as the client registers it. `+clamp` registers what the server sent: it asked for the platform's
    /// reliable minimum as `min_radius_meters`, so the server merged and computed the refresh distance for those radii
    /// (a floor applied here would not be). `staged` never goes below that minimum, and its wide regions are wider
    /// still.
    func registered(_ r: Region) -> (Region, RegionRole) {
        if r.kind == .refresh { return (r, .refresh) }
        var out = r
        if strategy.staged {
            out.radiusMeters = max(r.radiusMeters, platform.minReliableRadiusMeters, app.stagedWideMinMeters)
            return (out, .wide)
        }
        return (out, .store)
    }

    mutating func apply(_ regions: [Region], at time: Double) {
        let wanted = regions.map { r -> (String, Region, RegionRole) in
            let (reg, role) = registered(r)
            return (Self.identifier(reg, role), reg, role)
        }
        let wantedKeys = Set(wanted.map(\.0))
        // A small region stays while its wide region does.
        let stale = monitored.filter { key, w in
            w.role == .small ? !wantedKeys.contains(w.wideKey ?? "") || !strategy.diff : !wantedKeys.contains(key) || !strategy.diff
        }
        for key in stale.keys.sorted() { release(key, at: time) }
        for (key, region, role) in wanted where monitored[key] == nil {
            startMonitoring(region, key: key, role: role, at: time)
        }
    }

    mutating func monitorFixed(_ regions: [Region], at time: Double) {
        for region in regions {
            let key = Self.identifier(region, .store)
            if monitored[key] == nil { startMonitoring(region, key: key, role: .store, at: time) }
        }
    }

    /// Starts monitoring, or notes that the platform's limit is reached.
    @discardableResult
    mutating func startMonitoring(_ region: Region, key: String, role: RegionRole, wideKey: String? = nil, at time: Double) -> Bool {
        guard monitored.count < platform.maxRegions else {
            emit(.note(.regionLimitReached(region, limit: platform.maxRegions)))
            return false
        }
        monitored[key] = Watched(region: region, role: role, wideKey: wideKey, since: time)
        emit(.startMonitoring(RegionWatch(identifier: key, region: region, role: role, notifyOnDwell: notifiesOnDwell(role))))
        if strategy.requestState && role != .refresh && !platform.reportsEntryWhenAddedInside {
            emit(.requestState(key))
        }
        return true
    }

    mutating func release(_ key: String, at time: Double) {
        guard let watch = watch(key) else { return }
        monitored[key] = nil
        emit(.stopMonitoring(watch))
        // No exit will come for a region no longer monitored: its follow ends here, and its card goes.
        endFollow(key, at: time, reason: .regionReleased)
        leftStore(key)
    }

    // MARK: the OS's reports

    /// An entry, a dwell or an "inside" state: what it means depends on what the region is for.
    mutating func entered(_ key: String, trigger: CardTrigger, at time: Double) {
        guard let w = monitored[key] else { return }
        switch w.role {
        case .refresh:
            return
        case .store:
            // A store region registered for DWELL also reports ENTER on some platforms; only the registered one counts.
            if platform.storeRegionsNotifyOnDwell && trigger == .entry { return }
            post(w, key: key, trigger: trigger, at: time)
        case .wide:
            emit(.requestLocation(forRegion: key, seconds: app.gpsFixSeconds))
            awaitingFix.append(key)
        case .small:
            if platform.storeRegionsNotifyOnDwell && trigger == .entry { return }
            post(w, key: key, trigger: trigger == .state ? .state : .storeRegion, at: time)
        }
    }

    mutating func state(_ key: String, inside: Bool?, at time: Double) {
        guard let w = monitored[key], w.role != .refresh, inside == true else { return }
        entered(key, trigger: .state, at: time)
    }

    mutating func exited(_ key: String, lastKnown: LocationFix?, at time: Double) {
        guard let w = monitored[key] else { return }
        if let s = scheduled.removeValue(forKey: key) {
            emit(.withdrawCard(notice(s.region, s.trigger)))
            emit(.cancelWake(id: s.wakeId))
        }
        endFollow(key, at: time, reason: .leftRegion)
        leftStore(key, exitAt: time)
        switch w.role {
        case .refresh: leftRefreshRegion(lastKnown: lastKnown)
        case .wide: releaseSmallRegions(of: key, at: time)
        case .store, .small: break
        }
    }

    // MARK: the app's life

    mutating func permission(_ granted: Bool, at time: Double) {
        guard granted != permitted else { return }
        if granted {
            permitted = true
            // What was monitored is gone: the next wake asks the server afresh (or monitors the fixed regions).
            lastRefresh = nil
            retryAt = nil
            return
        }
        stop(at: time)
        permitted = false
    }

    /// Ends every follow, withdraws waiting cards, takes the card on screen away and releases every region.
    mutating func stop(at time: Double) {
        for key in follows.keys.sorted() { endFollow(key, at: time, reason: .stopped) }
        for key in monitored.keys.sorted() { leftStore(key) }
        for key in scheduled.keys.sorted() {
            guard let s = scheduled.removeValue(forKey: key) else { continue }
            emit(.withdrawCard(notice(s.region, s.trigger)))
            emit(.cancelWake(id: s.wakeId))
        }
        for key in monitored.keys.sorted() {
            if let watch = watch(key) { emit(.stopMonitoring(watch)) }
            monitored[key] = nil
        }
        awaitingFix = []
        inFlight = nil
    }
}
