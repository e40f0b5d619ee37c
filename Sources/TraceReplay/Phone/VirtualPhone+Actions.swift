import Foundation
import Geo
import OnCueClient
import OnCueContract

/// The machine's actions, carried out on the virtual OS and recorded.
extension VirtualPhone {
    func carryOut(_ actions: [ClientAction], at time: Double, queue: inout EventQueue, traceEnded: Bool = false) {
        for action in actions {
            switch action {
            case .startMonitoring(let w):
                start(w, at: time, queue: &queue)
            case .stopMonitoring(let w):
                if !traceEnded { manager.stopMonitoring(w.identifier) }
                recorder.stopped(w.region, key: w.identifier, role: MonitoredInterval.Role(w.role), at: time, final: traceEnded)
            case .requestState(let key):
                manager.requestState(key, now: time, queue: &queue)
            case .refresh:
                deferred.append(action)
            case .startPreciseLocation(let from):
                gpsCountedFrom = from
            case .stopPreciseLocation:
                if let from = gpsCountedFrom { recorder.gpsSeconds += time - from }
                gpsCountedFrom = nil
            case .requestLocation(let key, let seconds):
                locate(for: key, seconds: seconds, at: time, queue: &queue)
            case .postCard(let n):
                recorder.post(card(n, at: time), tier: n.tier, identifier: n.identifier)
            case .withdrawCard(let n):
                // A card still waiting when the recording ends was neither shown nor withdrawn.
                if !traceEnded {
                    if n.tier == .quiet { recorder.withdrawQuiet(card(n, at: time)) } else { recorder.withdraw(card(n, at: time), at: time) }
                }
            case .removeCard(let n):
                // At the end of the recording the card stays on screen until then (`Recorder.finish`).
                if !traceEnded { recorder.removeCard(n.identifier, at: time) }
            case .scheduleWake(let id, let due):
                queue.push(due, .wakeDue(id))
            case .cancelWake:
                // The machine ignores a cancelled wake that comes anyway: nothing to take out of the queue.
                break
            case .note(let note):
                record(note, action: action, at: time)
            }
        }
    }

    private func start(_ w: RegionWatch, at time: Double, queue: inout EventQueue) {
        let trigger: VirtualLocationManager.Trigger = w.notifyOnDwell ? .dwell : .entry
        guard manager.startMonitoring(w.region, key: w.identifier, trigger: trigger, now: time, queue: &queue) else {
            let refusal = ClientNote.regionLimitReached(w.region, limit: manager.os.maxRegions)
            record(refusal, action: .note(refusal), at: time)
            carryOut(machine.handle(.monitoringFailed(w.identifier), at: time), at: time, queue: &queue)
            return
        }
        recorder.started(w.region, key: w.identifier, role: MonitoredInterval.Role(w.role), at: time)
    }

    /// `staged`: the app's own fix when a wide region woke it — the recorded position, GPS on for the fix's time.
    private func locate(for key: String, seconds: Double, at time: Double, queue: inout EventQueue) {
        guard let fix = manager.lastFix, let wide = machine.watch(key) else {
            carryOut(machine.handle(.locationAnswered(nil), at: time), at: time, queue: &queue)
            return
        }
        recorder.gpsSeconds += seconds
        let accuracy = fix.traceAccuracy > 0 ? fix.traceAccuracy : 10
        let distance = fix.trueUnit.meters(to: UnitVector(latitude: wide.region.lat, longitude: wide.region.lon))
        recorder.event(
            ReplayEvent(
                time: time, kind: .gpsFix, location: wide.region.id, network: wide.region.networkId,
                distance: (distance * 10).rounded() / 10, detail: String(format: "accuracy %.0f m", accuracy)))
        let answer = PreciseFix(position: fix.appUnit, accuracy: fix.traceAccuracy)
        carryOut(machine.handle(.locationAnswered(answer), at: time), at: time, queue: &queue)
    }

    private func record(_ note: ClientNote, action: ClientAction, at time: Double) {
        switch note {
        case .refreshApplied(let regions, let threshold):
            recorder.event(ReplayEvent(time: time, kind: .refreshOK, detail: "\(regions) regions, refresh after \(Int(threshold)) m"))
        case .regionLimitReached(let region, let limit):
            recorder.monitorFailures += 1
            recorder.event(
                ReplayEvent(time: time, kind: .monitorFailed, location: region.id, network: region.networkId, detail: "limit of \(limit) regions"))
        case .cardScheduled(let n, let due):
            recorder.event(
                ReplayEvent(
                    time: time, kind: .scheduled, location: n.region.id, network: n.region.networkId,
                    distance: recorder.trueDistance(to: n.region), detail: "\(n.trigger.rawValue), due in \(Int(due)) s"))
        case .cardSuppressed(let n):
            recorder.suppress(card(n, at: time))
        case .leftRefreshRegion:
            deferred.append(action)
        case .followingStore(let region):
            recorder.event(
                ReplayEvent(
                    time: time, kind: .gpsFix, location: region.id, network: region.networkId, distance: recorder.trueDistance(to: region),
                    detail: "GPS on: following the store"))
        case .stoppedFollowing(let region, let end):
            recorder.event(
                ReplayEvent(
                    time: time, kind: .gpsFix, location: region.id, network: region.networkId,
                    detail: "GPS off: \(end == .stopped ? "trace ended" : end.rawValue)"))
        case .stayPending(let region, let hold):
            recorder.held(region, hold, at: time)
            recorder.event(
                ReplayEvent(
                    time: time, kind: .gpsFix, location: region.id, network: region.networkId, distance: recorder.trueDistance(to: region),
                    detail: "no card yet: \(hold.rawValue)"))
        }
    }

    func card(_ n: CardNotice, at time: Double) -> CardNotification {
        CardNotification(
            time: time, networkId: n.region.networkId, locationIds: n.locationIds, card: n.card, trigger: .client(n.trigger),
            distance: recorder.trueDistance(to: n.region))
    }

    /// A refresh call through the scenario's network: its latency, failures and outages, on the virtual clock.
    /// The call goes out once the callbacks already due are delivered, with the body as it stands then.
    func perform(_ decided: RefreshCall, queue: inout EventQueue) async {
        guard let refresher else { return }
        var call = decided
        call.request = machine.currentRequest(for: decided)
        recorder.refreshCalls += 1
        recorder.event(ReplayEvent(time: call.fixTime, kind: .refreshRequest, detail: String(format: "accuracy %.0f m", call.request.accuracy ?? 0)))
        let latency =
            network.latencyMaxSeconds > network.latencyMinSeconds
            ? network.latencyMinSeconds + (network.latencyMaxSeconds - network.latencyMinSeconds) * Double.random(in: 0..<1, using: &rng)
            : network.latencyMinSeconds
        let failDraw = Double.random(in: 0..<1, using: &rng)
        let sinceStart = call.fixTime - traceStart
        var failure: String?
        if network.outages.contains(where: { $0.count == 2 && sinceStart >= $0[0] && sinceStart < $0[1] }) {
            failure = "outage"
        } else if failDraw < network.failureProbability {
            failure = "network error"
        } else if manager.os.backgroundSeconds > 0 && latency > manager.os.backgroundSeconds {
            failure = "background time expired"
        }
        var response: RegionRefreshResponse?
        if failure == nil {
            do { response = try await refresher.refresh(call.request, now: Date(timeIntervalSince1970: call.fixTime)) } catch {
                failure = "server: \(error)"
            }
        }
        if let response {
            queue.push(call.fixTime + latency, .refreshSucceeded(response))
        } else {
            queue.push(call.fixTime + latency, .refreshFailed(reason: failure ?? "unknown"))
        }
    }
}

extension MonitoredInterval.Role {
    init(_ role: RegionRole) {
        switch role {
        case .store: self = .store
        case .refresh: self = .refresh
        case .wide: self = .wide
        case .small: self = .small
        }
    }
}
