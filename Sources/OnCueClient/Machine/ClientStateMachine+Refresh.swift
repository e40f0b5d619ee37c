import Geo
import OnCueContract

/// When the client asks the server, and what it does with the answer: the product document's `LocationService`
/// (refresh after moving the threshold or after 6 h, on the wakes the OS gives), the study's strategies on top
/// (the server's guaranteed distance, a refresh region, a minimum interval), and retries with a doubling backoff.
extension ClientStateMachine {
    mutating func woke(_ reason: ClientEvent.WakeReason, fix: LocationFix) {
        observed(fix.unit, accuracy: fix.accuracy, at: fix.time)
        if let fixedRegions {
            if reason == .launch { monitorFixed(fixedRegions, at: fix.time) }
            return
        }
        if reason == .visit && (app.visitConfirmsStay || twoTiers) { visited(fix) }
        if strategy.literal && !(reason == .launch || reason == .significantChange) { return }
        if shouldRefresh(fix) { refresh(from: fix, reason: .wake) }
    }

    func shouldRefresh(_ fix: LocationFix) -> Bool {
        guard inFlight == nil else { return false }
        let interval = app.refreshIntervalSeconds
        guard let last = lastRefresh else {
            if let retryAt, !strategy.literal, fix.time < retryAt { return false }
            return true
        }
        let moved = fix.unit.meters(to: last.unit)
        if strategy.literal {
            // The pseudo-code returns false if EITHER check fails: it needs both 500 m AND 6 h (the flowchart says OR).
            return moved >= threshold && fix.time - last.time >= interval
        }
        if let retryAt { return fix.time >= retryAt }
        if fix.time - last.time < app.minRefreshIntervalSeconds { return false }
        return moved >= threshold || fix.time - last.time >= interval
    }

    /// Regions asked of the server: `staged` keeps its small-region slots out of the platform's budget.
    var requestedRegions: Int {
        let limit = min(strategy.maxRegions, platform.maxRegions)
        return strategy.staged ? max(1, limit - app.stagedSlots) : strategy.maxRegions
    }

    mutating func refresh(from fix: LocationFix, reason: RefreshCall.Reason) {
        inFlight = RefreshMark(time: fix.time, unit: fix.unit)
        let request = request(lat: fix.latitude, lon: fix.longitude, accuracy: fix.accuracy)
        emit(.refresh(RefreshCall(request: request, fixTime: fix.time, reason: reason)))
    }

    func request(lat: Double, lon: Double, accuracy: Double?) -> RegionRefreshRequest {
        var request = RegionRefreshRequest(
            lat: lat, lon: lon, accuracy: accuracy, radiusKm: app.radiusKm, userNetworks: walletNetworks, maxRegions: requestedRegions)
        request.networkVisits = networkVisits.isEmpty ? nil : networkVisits
        request.includeOtherNetworks = app.includeOtherNetworks
        request.reserveRefreshRegion = strategy.refreshRegion ? true : nil
        request.minRadiusMeters = strategy.clamp ? platform.minReliableRadiusMeters : nil
        return request
    }

    /// The body of `call` as it stands now: an app that sends later than it decided to (a queued call, a retry)
    /// sends the visit counts of the cards posted meanwhile.
    public func currentRequest(for call: RefreshCall) -> RegionRefreshRequest {
        request(lat: call.request.lat, lon: call.request.lon, accuracy: call.request.accuracy)
    }

    mutating func refreshSucceeded(_ response: RegionRefreshResponse, at time: Double) {
        // An answer to no question (one that came after the client was restored without it) changes nothing.
        guard let asked = inFlight else { return }
        inFlight = nil
        retryAt = nil
        backoff = settings.backoffInitialSeconds
        lastRefresh = asked
        let largest = response.regions.filter { $0.kind != .refresh }.map(\.radiusMeters).max() ?? 0
        threshold = strategy.threshold == .fixed ? max(largest, app.fixedMinimumMeters) : response.refreshAfterMeters
        emit(.note(.refreshApplied(regions: response.regions.count, refreshAfterMeters: threshold)))
        apply(response.regions, at: time)
    }

    mutating func refreshFailed(retryAfter: Double?, at time: Double) {
        guard inFlight != nil else { return }
        inFlight = nil
        retryAt = time + max(backoff, retryAfter ?? 0)
        backoff = min(settings.backoffMaxSeconds, backoff * 2)
    }

    /// The phone left the refresh region: ask again from where it was last known, unless a retry waits.
    mutating func leftRefreshRegion(lastKnown: LocationFix?) {
        guard let fix = lastKnown, inFlight == nil else { return }
        emit(.note(.leftRefreshRegion(fixTime: fix.time)))
        if let retryAt, fix.time < retryAt { return }
        refresh(from: fix, reason: .refreshRegionExit)
    }
}
