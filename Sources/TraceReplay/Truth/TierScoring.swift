import Foundation
import OnCueClient

/// Scores a run's card lives (`Recorder.cardLives`) against the card moments: `TierMetrics`.
enum TierScoring {
    static func score(_ input: MomentScoring.Input, recorder: Recorder, tills: [[Till]]) -> TierMetrics {
        let model = input.model
        var t = TierMetrics()
        t.hours = input.hours
        t.moments = input.moments.count
        let lives = recorder.cardLives
        func window(_ c: CardMoment) -> ClosedRange<Double> { (c.arrival - model.matchBeforeSeconds)...(c.departure + model.matchAfterSeconds) }
        var momentsByNetwork: [String: [CardMoment]] = [:]
        for c in input.moments { momentsByNetwork[c.networkId, default: []].append(c) }
        func atMoment(_ network: String, _ time: Double) -> Bool {
            momentsByNetwork[network]?.contains { window($0).contains(time) } == true
        }

        for life in lives {
            if let alert = life.alertTime {
                t.alerts += 1
                if atMoment(life.networkId, alert) { t.alertsAtMoment += 1 } else { t.strayAlerts += 1 }
            }
            guard life.tier == .quiet else { continue }
            t.quietCards += 1
            if !atMoment(life.networkId, life.posted) {
                t.strayQuiet += 1
                t.strayQuietSeconds.append(life.quietSeconds)
            }
        }

        for (i, c) in input.moments.enumerated() {
            let mine = lives.filter { $0.networkId == c.networkId }
            let shown = tills[i].contains { till in
                mine.contains { $0.posted >= till.arrival - model.matchBeforeSeconds && $0.onScreen(at: till.payBy) }
            }
            let inWindow = mine.filter { window(c).contains($0.posted) }
            if let first = inWindow.map(\.posted).min() { t.screenDelays.append(first - c.arrival) }
            let alertAt = mine.compactMap(\.alertTime).filter { window(c).contains($0) }.min()
            if let alertAt { t.alertDelays.append(alertAt - c.arrival) }
            if c.departure - c.arrival >= TierMetrics.longStaySeconds {
                t.longStays += 1
                if alertAt != nil { t.longStaysAlerted += 1 }
            }
            if shown {
                t.onScreen += 1
                continue
            }
            if !inWindow.isEmpty {
                // A card came for the moment: gone by the till (removed, or another took its place), or only after it.
                let came = inWindow.filter { life in tills[i].contains { life.posted <= $0.payBy } }
                if came.contains(where: { $0.end == .removed }) {
                    t.missedRemovedBeforeTill += 1
                } else if !came.isEmpty {
                    t.missedReplacedBeforeTill += 1
                } else {
                    t.missedLate += 1
                }
                continue
            }
            switch MomentScoring.classify(c, index: i, tills: tills[i], input: input, recorder: recorder).0 {
            case .notMonitored: t.missedNotMonitored += 1
            case .osDetection: t.missedOSDetection += 1
            case .regionDetection: t.missedRegionDetection += 1
            case .notConfirmed, .policy: t.missedAppHeld += 1
            }
        }
        t.finishRatios()
        return t
    }
}
