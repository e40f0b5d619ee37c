import Foundation
import OnCueClient

/// Matches a run's notifications to card moments and location visits, and says why each missed moment was missed.
enum MomentScoring {
    struct Input {
        var strategy: String
        var hours: Double
        var moments: [CardMoment]
        var visits: [Visit]
        var passThroughs: [PassThrough]
        var model: GroundTruthModel
        var cooldownSeconds: Double
        /// Moments `oracle-os` caught (indices into `moments`); nil while scoring `oracle-os` itself.
        var oracleOSCaught: Set<Int>?
        /// Each network's category (its till time: `GroundTruthModel.payAfterByCategory`).
        var categories: [String: String] = [:]
    }

    static func score(_ input: Input, recorder: Recorder) -> (StrategyMetrics, [MomentOutcome]) {
        let model = input.model
        var m = StrategyMetrics(strategy: input.strategy)
        m.hours = input.hours
        m.cardMoments = input.moments.count
        m.refreshCalls = recorder.refreshCalls
        m.refreshFailures = recorder.refreshFailures
        m.regionStarts = recorder.regionStarts
        m.regionStops = recorder.regionStops
        m.monitorFailures = recorder.monitorFailures
        m.wakes = recorder.wakes
        m.gpsSeconds = recorder.gpsSeconds
        m.suppressed = recorder.suppressed.count
        m.withdrawn = recorder.withdrawn.count
        let notes = recorder.notifications
        m.notifications = notes.count

        func window(_ c: CardMoment) -> ClosedRange<Double> { (c.arrival - model.matchBeforeSeconds)...(c.departure + model.matchAfterSeconds) }
        var momentsByNetwork: [String: [Int]] = [:]
        for (i, c) in input.moments.enumerated() { momentsByNetwork[c.networkId, default: []].append(i) }
        // Each notification goes to the earliest moment of its network whose window holds it.
        var matched: [[Int]] = Array(repeating: [], count: input.moments.count)
        for (j, n) in notes.enumerated() {
            if let i = momentsByNetwork[n.networkId]?.first(where: { window(input.moments[$0]).contains(n.time) }) { matched[i].append(j) }
        }
        m.correctNotifications = matched.reduce(0) { $0 + $1.count }
        let tills = input.moments.map { model.tills($0, category: input.categories[$0.networkId]) }
        m.servedNotifications = servedCount(notes, input: input, tills: tills, momentsByNetwork: momentsByNetwork)

        var outcomes: [MomentOutcome] = []
        for (i, c) in input.moments.enumerated() {
            // The card that counts is the first in time for a till, or, when none was, the first of all.
            let inTime = matched[i].filter { model.comesInTime(notes[$0].time, among: tills[i]) }
            if let first = (inTime.isEmpty ? matched[i] : inTime).min(by: { notes[$0].time < notes[$1].time }) {
                let n = notes[first]
                let till = model.till(at: n.time, among: tills[i])
                let delay = n.time - till.arrival
                let status: MomentOutcome.Status =
                    inTime.isEmpty
                    ? .late : delay < -model.onTimeBeforeSeconds ? .early : delay > model.onTimeAfterSeconds ? .slow : .onTime
                m.count(status)
                m.caught += 1
                if !inTime.isEmpty { m.served += 1 }
                for (k, minutes) in StrategyMetrics.cardByMinutes.enumerated() where delay <= Double(minutes * 60) { m.cardBy[k] += 1 }
                m.delays.append(delay)
                m.duplicates += matched[i].count - 1
                outcomes.append(
                    MomentOutcome(
                        moment: c, status: status, delay: delay, cardTime: n.time, notifications: matched[i].count, trigger: n.trigger,
                        notifiedLocationId: n.locationIds.first, miss: nil, hold: nil,
                        detail:
                            "\(n.trigger.rawValue) \(signed(delay)) after \(till.arrival == c.arrival ? "arrival" : "the return visit's arrival"), "
                            + "till at \(signed(till.payBy - till.arrival))"))
            } else {
                let (miss, hold, detail) = classify(c, index: i, tills: tills[i], input: input, recorder: recorder)
                m.count(miss, hold: hold)
                outcomes.append(
                    MomentOutcome(
                        moment: c, status: .missed, delay: nil, cardTime: nil, notifications: 0, trigger: nil, notifiedLocationId: nil,
                        miss: miss, hold: hold, detail: detail))
            }
        }

        // The per-location view: a visit is caught by a notification credited to its location.
        m.locationVisits = input.visits.count
        for v in input.visits {
            let w = (v.arrival - model.matchBeforeSeconds)...(v.departure + model.matchAfterSeconds)
            if notes.contains(where: { w.contains($0.time) && $0.locationIds.contains(v.locationId) }) { m.locationCaught += 1 }
        }
        m.finishRatios()
        m.tiers = TierScoring.score(input, recorder: recorder, tills: tills)
        return (m, outcomes)
    }

    /// Cards that came in time to use at a moment of their network: from a till's window start to the till.
    static func servedCount(
        _ notes: [CardNotification], input: Input, tills: [[Till]], momentsByNetwork: [String: [Int]]
    ) -> Int {
        notes.filter { n in
            momentsByNetwork[n.networkId]?.contains {
                n.time >= input.moments[$0].arrival - input.model.matchBeforeSeconds
                    && input.model.comesInTime(n.time, among: tills[$0])
            } == true
        }.count
    }

    static func classify(
        _ c: CardMoment, index: Int, tills: [Till], input: Input, recorder: Recorder
    ) -> (MomentOutcome.Miss, ClientNote.StayHold?, String) {
        let (miss, detail) = classifyPolicyOrOS(c, index: index, input: input, recorder: recorder)
        guard miss != .policy, let unconfirmed = notConfirmed(c, tills: tills, input: input, recorder: recorder) else {
            return (miss, nil, detail)
        }
        return (.notConfirmed, unconfirmed.hold, unconfirmed.detail)
    }

    /// The OS's last word on the moment's locations by a till was "inside", and no card came: the app's own loss.
    /// An inside report counts from an hour before the moment's window (the person may have entered a wide region
    /// early) unless an exit followed it.
    static func notConfirmed(
        _ c: CardMoment, tills: [Till], input: Input, recorder: Recorder
    ) -> (hold: ClientNote.StayHold?, detail: String)? {
        let ids = Set(c.locationIds)
        let lo = c.arrival - input.model.matchBeforeSeconds
        let payBy = tills.map(\.payBy).max() ?? c.arrival
        guard
            let last = recorder.insideReports.last(where: {
                $0.time <= payBy && $0.time >= lo - 3_600 && !ids.isDisjoint(with: $0.locationIds)
            }), last.inside
        else { return nil }
        let hold = recorder.holds.last { $0.time <= payBy && !ids.isDisjoint(with: $0.locationIds) }?.hold
        let why = hold.map { "held by: \($0.rawValue)" } ?? "the app never followed the store with its GPS"
        return (hold, "the OS reported the person inside \(signed(last.time - c.arrival)) after arrival; no card by the till (\(why))")
    }

    static func classifyPolicyOrOS(_ c: CardMoment, index: Int, input: Input, recorder: Recorder) -> (MomentOutcome.Miss, String) {
        let model = input.model
        let lo = c.arrival - model.matchBeforeSeconds
        let hi = c.departure + model.matchAfterSeconds
        if let held = recorder.suppressed.first(where: { $0.networkId == c.networkId && $0.time >= lo && $0.time <= hi }) {
            return (.policy, "\(held.trigger.rawValue) \(signed(held.time - c.arrival)) after arrival held back by the cool-down (a repeat card)")
        }
        if let gone = recorder.withdrawn.first(where: { $0.networkId == c.networkId && $0.time >= lo && $0.time <= hi }) {
            return (.policy, "card withdrawn \(signed(gone.time - c.arrival)) after arrival: the region's exit came before the confirmation delay")
        }
        if let early = recorder.notifications.last(where: {
            $0.networkId == c.networkId && $0.time < lo && $0.time >= c.arrival - input.cooldownSeconds
        }) {
            return (.policy, "card already shown \(Int((c.arrival - early.time).rounded())) s before arrival (\(early.trigger.rawValue))")
        }
        let ids = Set(c.locationIds)
        let watched = recorder.intervals.filter { !$0.isRefreshRegion && $0.start <= hi && $0.end >= lo && !ids.isDisjoint(with: $0.locationIds) }
        guard let widest = watched.max(by: { ($0.end - $0.start, $0.radiusMeters) < ($1.end - $1.start, $1.radiusMeters) }) else {
            return (.notMonitored, "no region of its locations monitored during the visit")
        }
        let region = "\(Int(widest.radiusMeters.rounded())) m \(widest.role.rawValue) region"
        guard let caughtByOracleOS = input.oracleOSCaught else {
            return (.osDetection, "\(region) monitored; the OS reported nothing in time")
        }
        if caughtByOracleOS.contains(index) {
            return (.regionDetection, "\(region) monitored; the OS reported nothing in time, oracle-os caught it")
        }
        return (.osDetection, "\(region) monitored; the OS reported nothing in time, nor for oracle-os")
    }

    static func signed(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s < 0 ? "\(s) s" : "+\(s) s"
    }
}
