import Foundation
import Geo
import LocationStore
import OnCueContract
import RegionRefresh

/// The product document's `LocationService`, on the virtual OS: decides when to refresh, applies responses
/// (diffing or stop-all/start-all), asks for the state of new regions, refreshes when leaving the refresh region,
/// retries failed refreshes with backoff, and posts card notifications with a cool-down. `staged` adds small store
/// regions behind wide ones (see PhoneApp+Staged.swift).
final class PhoneApp {
    let strategy: Strategy
    let scenario: Scenario
    let wallet: Wallet
    let manager: VirtualLocationManager
    let refresher: (any RegionRefreshing)?
    let recorder: Recorder
    /// Regions an oracle monitors instead of asking a server.
    let oracleRegions: [Region]
    private var rng: SeededRandom
    private let walletNetworks: [String]
    private let traceStart: Double

    private var lastRefresh: (time: Double, unit: UnitVector)?
    private var threshold: Double
    private var inFlight = false
    private var retryAt: Double?
    private var backoff: Double
    /// Last notification per cool-down key (network or location, by the app's scope).
    private var lastNotified: [String: Double] = [:]
    private var networkVisits: [String: Int] = [:]

    struct Watched {
        var region: Region
        var role: MonitoredInterval.Role
        /// A small region's wide region.
        var wideKey: String?
        var since: Double
    }

    /// Regions currently monitored, by key (id + geometry + role).
    var monitored: [String: Watched] = [:]
    /// Cards scheduled with the confirmation delay, by region key, until posted or withdrawn.
    private var scheduled: [String: (token: Int, region: Region, role: MonitoredInterval.Role, trigger: CardNotification.Trigger)] = [:]
    private var nextToken = 0
    /// `+gps`: stores the app is following with its own GPS, by region key.
    var sessions: [String: GPSSession] = [:]
    /// When the app's GPS came on (nil: off or resting), and while it rests, until when and since when.
    var gpsOnSince: Double?
    var gpsAsleepUntil: Double?
    var gpsSleptAt = 0.0
    /// Where the OS's low-power position was when GPS began resting beside a store (nil: resting by distance).
    var gpsRestAnchor: UnitVector?
    /// The trace segment of the last fix the app's GPS saw.
    var gpsSegment: Int32 = 0
    /// Where each card location stands (the app would get these with the regions; merged ids carry no position).
    let storePositions: [String: UnitVector]
    /// `+motion`: what the phone's motion sensor says.
    let motion: MotionTimeline?

    init(
        strategy: Strategy, scenario: Scenario, wallet: Wallet, manager: VirtualLocationManager, refresher: (any RegionRefreshing)?,
        recorder: Recorder, oracleRegions: [Region], seed: UInt64, traceStart: Double, storePositions: [String: UnitVector] = [:],
        motion: MotionTimeline? = nil
    ) {
        self.storePositions = storePositions
        self.motion = motion
        self.strategy = strategy
        self.scenario = scenario
        self.wallet = wallet
        self.manager = manager
        self.refresher = refresher
        self.recorder = recorder
        self.oracleRegions = oracleRegions
        self.rng = SeededRandom(seed: seed)
        self.walletNetworks = wallet.networkIds
        self.traceStart = traceStart
        self.threshold = scenario.app.fixedMinimumMeters
        self.backoff = scenario.network.backoffInitialSeconds
    }

    static func key(_ r: Region, _ role: MonitoredInterval.Role) -> String { "\(role.rawValue)|\(r.id)|\(r.lat)|\(r.lon)|\(r.radiusMeters)" }

    /// Store regions notify on DWELL where the OS has it and the scenario asks for it, else on entry.
    var storeTrigger: VirtualLocationManager.Trigger {
        manager.os.detection == "overlap" && manager.os.loiteringDelaySeconds > 0 ? .dwell : .entry
    }

    // MARK: wakes

    /// The OS woke the app with a fix (launch, significant change, visit, periodic, or every fix in the foreground/ideal).
    func wake(_ fix: PhoneFix, reason: VirtualLocationManager.Wake, queue: inout EventQueue) async {
        if reason != .everyFix {
            recorder.woke(at: fix.time, backgroundSeconds: manager.os.backgroundSeconds)
            recorder.event(ReplayEvent(time: fix.time, kind: .wake, detail: reason.rawValue))
        }
        if strategy.isOracle {
            if reason == .launch { startOracle(fix.time, queue: &queue) }
            return
        }
        if strategy.literal && !(reason == .launch || reason == .significantChange) { return }
        if shouldRefresh(fix) { await refresh(fix, queue: &queue) }
    }

    private func shouldRefresh(_ fix: PhoneFix) -> Bool {
        guard !inFlight else { return false }
        let interval = scenario.app.refreshIntervalSeconds
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
        if fix.time - last.time < scenario.app.minRefreshIntervalSeconds { return false }
        return moved >= threshold || fix.time - last.time >= interval
    }

    /// Regions asked of the server: `staged` keeps its small-region slots out of the OS's budget.
    var requestedRegions: Int {
        let limit = min(strategy.maxRegions, manager.os.maxRegions)
        return strategy.staged ? max(1, limit - scenario.app.stagedSlots) : strategy.maxRegions
    }

    private func refresh(_ fix: PhoneFix, queue: inout EventQueue) async {
        guard let refresher else { return }
        inFlight = true
        recorder.refreshCalls += 1
        recorder.event(ReplayEvent(time: fix.time, kind: .refreshRequest, detail: String(format: "accuracy %.0f m", fix.accuracy)))
        let request = RegionRefreshRequest(
            lat: fix.latitude, lon: fix.longitude, accuracy: fix.accuracy, radiusKm: scenario.app.radiusKm, userNetworks: walletNetworks,
            maxRegions: requestedRegions, networkVisits: networkVisits.isEmpty ? nil : networkVisits,
            localTime: nil, includeOtherNetworks: scenario.app.includeOtherNetworks,
            reserveRefreshRegion: strategy.refreshRegion ? true : nil,
            minRadiusMeters: strategy.clamp ? manager.os.minReliableRadiusMeters : nil)
        let net = scenario.network
        let latency =
            net.latencyMaxSeconds > net.latencyMinSeconds
            ? net.latencyMinSeconds + (net.latencyMaxSeconds - net.latencyMinSeconds) * Double.random(in: 0..<1, using: &rng)
            : net.latencyMinSeconds
        let failDraw = Double.random(in: 0..<1, using: &rng)
        let sinceStart = fix.time - traceStart
        var failure: String?
        if net.outages.contains(where: { $0.count == 2 && sinceStart >= $0[0] && sinceStart < $0[1] }) {
            failure = "outage"
        } else if failDraw < net.failureProbability {
            failure = "network error"
        } else if manager.os.backgroundSeconds > 0 && latency > manager.os.backgroundSeconds {
            failure = "background time expired"
        }
        var response: RegionRefreshResponse?
        if failure == nil {
            do { response = try await refresher.refresh(request, now: Date(timeIntervalSince1970: fix.time)) } catch { failure = "server: \(error)" }
        }
        if let response {
            queue.push(fix.time + latency, .refreshSucceeded(response, requestedAt: fix.time, at: fix.unit))
        } else {
            queue.push(fix.time + latency, .refreshFailed(reason: failure ?? "unknown"))
        }
    }

    // MARK: callbacks

    func handle(_ event: PendingEvent, at time: Double, queue: inout EventQueue) {
        switch event {
        case .refreshSucceeded(let response, let requestedAt, let unit):
            inFlight = false
            retryAt = nil
            backoff = scenario.network.backoffInitialSeconds
            lastRefresh = (requestedAt, unit)
            let largest = response.regions.filter { $0.kind != .refresh }.map(\.radiusMeters).max() ?? 0
            threshold = strategy.threshold == .fixed ? max(largest, scenario.app.fixedMinimumMeters) : response.refreshAfterMeters
            recorder.event(
                ReplayEvent(
                    time: time, kind: .refreshOK,
                    detail: "\(response.regions.count) regions, refresh after \(Int(threshold)) m"))
            apply(response.regions, at: time, queue: &queue)
        case .refreshFailed(let reason):
            inFlight = false
            recorder.refreshFailures += 1
            recorder.event(ReplayEvent(time: time, kind: .refreshFailed, detail: reason))
            retryAt = time + backoff
            backoff = min(scenario.network.backoffMaxSeconds, backoff * 2)
        case .enter(let key):
            guard let w = monitored[key] else { return }
            callback(.enter, w, time)
            arrived(w, key: key, trigger: .entry, at: time, queue: &queue)
        case .dwell(let key):
            guard let w = monitored[key] else { return }
            callback(.dwell, w, time)
            arrived(w, key: key, trigger: .dwell, at: time, queue: &queue)
        case .state(let key, let inside):
            guard let w = monitored[key], w.role != .refresh, inside != false else { return }
            callback(inside == true ? .stateInside : .stateUnknown, w, time)
            if inside == true { arrived(w, key: key, trigger: .state, at: time, queue: &queue) }
        case .postCard(let key, let token):
            guard let s = scheduled[key], s.token == token else { return }
            scheduled[key] = nil
            notify(s.region, trigger: s.trigger, at: time)
            if s.role == .small { stop(key, at: time) }
        case .exit(let key):
            guard let w = monitored[key] else { return }
            callback(.exit, w, time)
            if let s = scheduled.removeValue(forKey: key) { recorder.withdraw(card(s.region, s.trigger, at: time), at: time) }
            endSession(key, at: time, reason: "left the region")
            switch w.role {
            case .refresh:
                if let fix = manager.lastFix, !inFlight { pendingBubbleExit = fix }
            case .wide:
                stopSmallRegions(of: key, at: time)
            case .store, .small:
                break
            }
        }
    }

    private func callback(_ kind: ReplayEvent.Kind, _ w: Watched, _ time: Double) {
        recorder.woke(at: time, backgroundSeconds: manager.os.backgroundSeconds)
        recorder.event(
            ReplayEvent(
                time: time, kind: kind, location: w.region.id, network: w.region.networkId,
                card: wallet.card(for: w.region.networkId)?.name ?? "", distance: recorder.trueDistance(to: w.region),
                detail: w.role.rawValue))
    }

    /// The OS says the phone is in a region: what that means depends on what the region is for.
    private func arrived(_ w: Watched, key: String, trigger: CardNotification.Trigger, at time: Double, queue: inout EventQueue) {
        switch w.role {
        case .refresh:
            return
        case .store:
            // A store fence registered for DWELL also reports ENTER on some platforms; only the registered one counts.
            if storeTrigger == .dwell && trigger == .entry { return }
            post(w, key: key, trigger: trigger, at: time, queue: &queue)
        case .wide:
            wideRegionEntered(w, key: key, at: time, queue: &queue)
        case .small:
            if storeTrigger == .dwell && trigger == .entry { return }
            post(w, key: key, trigger: trigger == .state ? .state : .storeRegion, at: time, queue: &queue)
        }
    }

    /// Posts the card now, or schedules it after the confirmation delay (a second report while one is scheduled
    /// changes nothing).
    func post(_ w: Watched, key: String, trigger: CardNotification.Trigger, at time: Double, queue: inout EventQueue) {
        if strategy.gps {
            startSession(w, key: key, at: time)
            return
        }
        let delay = scenario.app.confirmSeconds
        guard delay > 0 else {
            notify(w.region, trigger: trigger, at: time)
            if w.role == .small { stop(key, at: time) }
            return
        }
        guard scheduled[key] == nil, wallet.card(for: w.region.networkId) != nil else { return }
        nextToken += 1
        scheduled[key] = (nextToken, w.region, w.role, trigger)
        recorder.event(
            ReplayEvent(
                time: time, kind: .scheduled, location: w.region.id, network: w.region.networkId,
                distance: recorder.trueDistance(to: w.region), detail: "\(trigger.rawValue), due in \(Int(delay)) s"))
        queue.push(time + delay, .postCard(regionKey: key, token: nextToken))
    }

    /// A refresh-region exit wakes the app; the refresh starts from the simulation loop (it is async).
    var pendingBubbleExit: PhoneFix?

    func refreshAfterBubbleExit(queue: inout EventQueue) async {
        guard let fix = pendingBubbleExit else { return }
        pendingBubbleExit = nil
        recorder.event(ReplayEvent(time: fix.time, kind: .wake, detail: "refresh_region_exit"))
        if let retryAt, fix.time < retryAt { return }
        await refresh(fix, queue: &queue)
    }

    func card(_ region: Region, _ trigger: CardNotification.Trigger, at time: Double) -> CardNotification {
        CardNotification(
            time: time, networkId: region.networkId, locationIds: Recorder.locationIds(of: region),
            card: wallet.card(for: region.networkId)?.name ?? region.networkId, trigger: trigger, distance: recorder.trueDistance(to: region))
    }

    func notify(_ region: Region, trigger: CardNotification.Trigger, at time: Double) {
        guard wallet.card(for: region.networkId) != nil else { return }
        let n = card(region, trigger, at: time)
        let ids = n.locationIds
        let cooldownKey = scenario.app.cooldownScope == "location" ? (ids.first ?? region.id) : region.networkId
        if let last = lastNotified[cooldownKey], time - last < scenario.app.cooldownSeconds {
            recorder.suppress(n)
            return
        }
        lastNotified[cooldownKey] = time
        networkVisits[region.networkId, default: 0] += 1
        recorder.notify(n)
    }

    // MARK: monitoring

    /// The region as the app registers it. `+clamp` registers what the server sent: it asked for the OS's reliable
    /// minimum as `min_radius_meters`, so the server merged and computed the refresh distance for those radii (a floor
    /// applied here would not be). `staged` never goes below that minimum, and its wide regions are wider still.
    private func registered(_ r: Region) -> (Region, MonitoredInterval.Role) {
        if r.kind == .refresh { return (r, .refresh) }
        var out = r
        if strategy.staged {
            out.radiusMeters = max(r.radiusMeters, manager.os.minReliableRadiusMeters, scenario.app.stagedWideMinMeters)
            return (out, .wide)
        }
        return (out, .store)
    }

    private func apply(_ regions: [Region], at time: Double, queue: inout EventQueue) {
        let wanted = regions.map { r -> (String, Region, MonitoredInterval.Role) in
            let (reg, role) = registered(r)
            return (Self.key(reg, role), reg, role)
        }
        let wantedKeys = Set(wanted.map(\.0))
        // A small region stays while its wide region does.
        let stale = monitored.filter { key, w in
            w.role == .small ? !wantedKeys.contains(w.wideKey ?? "") || !strategy.diff : !wantedKeys.contains(key) || !strategy.diff
        }
        for key in stale.keys.sorted() { stop(key, at: time) }
        for (key, region, role) in wanted where monitored[key] == nil {
            start(region, key: key, role: role, at: time, queue: &queue)
        }
    }

    @discardableResult
    func start(
        _ region: Region, key: String, role: MonitoredInterval.Role, wideKey: String? = nil, at time: Double,
        queue: inout EventQueue
    ) -> Bool {
        let trigger: VirtualLocationManager.Trigger = role == .store || role == .small ? storeTrigger : .entry
        guard manager.startMonitoring(region, key: key, trigger: trigger, now: time, queue: &queue) else {
            recorder.monitorFailures += 1
            recorder.event(
                ReplayEvent(
                    time: time, kind: .monitorFailed, location: region.id, network: region.networkId,
                    detail: "limit of \(manager.os.maxRegions) regions"))
            return false
        }
        monitored[key] = Watched(region: region, role: role, wideKey: wideKey, since: time)
        recorder.started(region, key: key, role: role, at: time)
        if strategy.requestState && role != .refresh && !manager.os.initialTriggerEntry {
            manager.requestState(key, now: time, queue: &queue)
        }
        return true
    }

    func stop(_ key: String, at time: Double) {
        guard let w = monitored.removeValue(forKey: key) else { return }
        manager.stopMonitoring(key)
        recorder.stopped(w.region, key: key, role: w.role, at: time)
        // No exit will come for a region no longer monitored: its follow ends here.
        endSession(key, at: time, reason: "region no longer monitored")
    }

    private func startOracle(_ time: Double, queue: inout EventQueue) {
        for region in oracleRegions { start(region, key: Self.key(region, .store), role: .store, at: time, queue: &queue) }
    }

    /// Closes the monitored intervals (and GPS) at the end of the trace.
    func finish(at time: Double) {
        for key in sessions.keys.sorted() { endSession(key, at: time, reason: "trace ended") }
        for key in monitored.keys.sorted() {
            let w = monitored[key]!
            recorder.stopped(w.region, key: key, role: w.role, at: time, final: true)
        }
    }
}
