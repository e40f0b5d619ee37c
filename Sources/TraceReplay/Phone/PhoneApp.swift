import Foundation
import LocationStore
import RegionRefresh

/// The product document's `LocationService`, on the virtual OS: decides when to refresh, applies responses
/// (diffing or stop-all/start-all), asks for the state of new regions, refreshes when leaving the refresh region,
/// retries failed refreshes with backoff, and posts card notifications with a per-location cool-down.
final class PhoneApp {
    let strategy: Strategy
    let scenario: Scenario
    let wallet: Wallet
    let manager: VirtualLocationManager
    let refresher: (any RegionRefreshing)?
    let recorder: Recorder
    /// Regions the oracle monitors instead of asking a server.
    let oracleRegions: [Region]
    private var rng: SeededRandom
    private let walletNetworks: [String]
    private let traceStart: Double

    private var lastRefresh: (time: Double, unit: Unit)?
    private var threshold: Double
    private var inFlight = false
    private var retryAt: Double?
    private var backoff: Double
    private var lastNotified: [String: Double] = [:]
    private var networkVisits: [String: Int] = [:]
    /// Regions currently monitored by key (id + geometry), with the region itself.
    private var monitored: [String: Region] = [:]

    init(strategy: Strategy, scenario: Scenario, wallet: Wallet, manager: VirtualLocationManager, refresher: (any RegionRefreshing)?,
         recorder: Recorder, oracleRegions: [Region], seed: UInt64, traceStart: Double) {
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

    static func key(_ r: Region) -> String { "\(r.id)|\(r.lat)|\(r.lon)|\(r.radiusMeters)" }

    // MARK: wakes

    /// The OS woke the app with a fix (launch, significant change, visit, or every fix in the foreground/ideal).
    func wake(_ fix: PhoneFix, reason: VirtualLocationManager.Wake, queue: inout EventQueue) async {
        if reason != .everyFix { recorder.event(ReplayEvent(time: fix.time, kind: .wake, detail: reason.rawValue)) }
        if strategy.oracle {
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
        return moved >= threshold || fix.time - last.time >= interval
    }

    private func refresh(_ fix: PhoneFix, queue: inout EventQueue) async {
        guard let refresher else { return }
        inFlight = true
        recorder.refreshCalls += 1
        recorder.event(ReplayEvent(time: fix.time, kind: .refreshRequest, detail: String(format: "accuracy %.0f m", fix.accuracy)))
        let request = RegionRefreshRequest(
            lat: fix.latitude, lon: fix.longitude, accuracy: fix.accuracy, radiusKm: scenario.app.radiusKm, userNetworks: walletNetworks,
            maxRegions: strategy.maxRegions, networkVisits: networkVisits.isEmpty ? nil : networkVisits,
            localTime: nil, includeOtherNetworks: scenario.app.includeOtherNetworks,
            reserveRefreshRegion: strategy.refreshRegion ? true : nil)
        let net = scenario.network
        let latency = net.latencyMaxSeconds > net.latencyMinSeconds
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
            do { response = try await refresher.refresh(request, now: Date(timeIntervalSince1970: fix.time)) }
            catch { failure = "server: \(error)" }
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
            recorder.event(ReplayEvent(time: time, kind: .refreshOK,
                                       detail: "\(response.regions.count) regions, refresh after \(Int(threshold)) m"))
            apply(response.regions, at: time, queue: &queue)
        case .refreshFailed(let reason):
            inFlight = false
            recorder.refreshFailures += 1
            recorder.event(ReplayEvent(time: time, kind: .refreshFailed, detail: reason))
            retryAt = time + backoff
            backoff = min(scenario.network.backoffMaxSeconds, backoff * 2)
        case .enter(let key):
            guard let region = monitored[key] else { return }
            recorder.event(regionEvent(.enter, region, time))
            if region.kind == .refresh { return }
            notify(region, at: time)
        case .state(let key, let inside):
            guard inside, let region = monitored[key], region.kind != .refresh else { return }
            recorder.event(regionEvent(.stateInside, region, time))
            notify(region, at: time)
        case .exit(let key):
            guard let region = monitored[key] else { return }
            recorder.event(regionEvent(.exit, region, time))
            if region.kind == .refresh, let fix = manager.lastFix, !inFlight {
                pendingBubbleExit = fix
            }
        }
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

    private func regionEvent(_ kind: ReplayEvent.Kind, _ r: Region, _ time: Double) -> ReplayEvent {
        ReplayEvent(time: time, kind: kind, location: r.id, network: r.networkId, card: wallet.card(for: r.networkId)?.name ?? "",
                    distance: recorder.trueDistance(to: r), detail: r.kind == .refresh ? "refresh region" : "")
    }

    private func notify(_ region: Region, at time: Double) {
        guard let card = wallet.card(for: region.networkId) else { return }
        let locationId = Recorder.locationIds(of: region).first ?? region.id
        if let last = lastNotified[locationId], time - last < scenario.app.cooldownSeconds {
            recorder.event(ReplayEvent(time: time, kind: .suppressed, location: locationId, network: region.networkId, card: card.name,
                                       distance: recorder.trueDistance(to: region)))
            return
        }
        lastNotified[locationId] = time
        networkVisits[region.networkId, default: 0] += 1
        recorder.notify(region: region, locationId: locationId, card: card.name, at: time)
    }

    // MARK: monitoring

    private func apply(_ regions: [Region], at time: Double, queue: inout EventQueue) {
        let wanted = regions.map { (Self.key($0), $0) }
        let wantedKeys = Set(wanted.map(\.0))
        if strategy.diff {
            for key in monitored.keys.sorted() where !wantedKeys.contains(key) { stop(key, at: time) }
        } else {
            for key in monitored.keys.sorted() { stop(key, at: time) }
        }
        for (key, region) in wanted where monitored[key] == nil {
            start(region, key: key, at: time, queue: &queue)
        }
    }

    private func start(_ region: Region, key: String, at time: Double, queue: inout EventQueue) {
        guard manager.startMonitoring(region, key: key, now: time, queue: &queue) else {
            recorder.monitorFailures += 1
            recorder.event(ReplayEvent(time: time, kind: .monitorFailed, location: region.id, network: region.networkId,
                                       detail: "limit of \(manager.os.maxRegions) regions"))
            return
        }
        monitored[key] = region
        recorder.started(region, key: key, at: time)
        if strategy.requestState && region.kind != .refresh && !manager.os.initialTriggerEntry {
            manager.requestState(key, now: time, queue: &queue)
        }
    }

    private func stop(_ key: String, at time: Double) {
        guard let region = monitored.removeValue(forKey: key) else { return }
        manager.stopMonitoring(key)
        recorder.stopped(region, key: key, at: time)
    }

    private func startOracle(_ time: Double, queue: inout EventQueue) {
        for region in oracleRegions { start(region, key: Self.key(region), at: time, queue: &queue) }
    }

    /// Closes the monitored intervals at the end of the trace.
    func finish(at time: Double) {
        for key in monitored.keys.sorted() { recorder.stopped(monitored[key]!, key: key, at: time, final: true) }
    }
}
