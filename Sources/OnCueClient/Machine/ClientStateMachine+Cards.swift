import OnCueContract

/// The card decision: post when the OS puts the person in a store region — at once, after the confirmation delay
/// (withdrawn if they leave first), or once the client's own GPS shows a stay (`+gps`) — and never twice within the
/// cool-down of its scope. With two tiers (`ClientStateMachine+Tiers`) the OS's report posts a quiet card first, and
/// this decision makes it an alert.
extension ClientStateMachine {
    /// Posts the card now, or schedules it after the confirmation delay (a second report while one is scheduled
    /// changes nothing).
    mutating func post(_ w: Watched, key: String, trigger: CardTrigger, at time: Double) {
        reportedInside(w, key: key, trigger: trigger, at: time)
        if strategy.gps {
            follow(w, key: key, at: time)
            return
        }
        let delay = app.confirmSeconds
        guard delay > 0 else {
            notify(w.region, trigger: trigger, at: time)
            if w.role == .small { release(key, at: time) }
            return
        }
        guard scheduled[key] == nil, wallet.card(for: w.region.networkId) != nil else { return }
        nextWakeId += 1
        scheduled[key] = ScheduledCard(wakeId: nextWakeId, region: w.region, role: w.role, trigger: trigger)
        emit(.note(.cardScheduled(notice(w.region, trigger), dueInSeconds: delay)))
        emit(.scheduleWake(id: nextWakeId, at: time + delay))
    }

    mutating func wakeDue(_ id: Int, at time: Double) {
        if twoTiers, tierWakeDue(id, at: time) { return }
        guard let key = scheduled.first(where: { $0.value.wakeId == id })?.key, let s = scheduled.removeValue(forKey: key) else { return }
        notify(s.region, trigger: s.trigger, at: time)
        if s.role == .small { release(key, at: time) }
    }

    /// The notice of `region`'s card at `tier`: with two tiers under the one on-screen identifier, else under its
    /// region's (a store's card replaces its own earlier card, as the cool-down allows).
    func notice(_ region: Region, _ trigger: CardTrigger, tier: CardTier = .alert) -> CardNotice {
        CardNotice(
            region: region, locationIds: Self.locationIds(of: region), card: wallet.card(for: region.networkId)?.name ?? region.networkId,
            trigger: trigger, tier: twoTiers ? tier : .alert,
            identifier: twoTiers ? CardNotice.onScreenIdentifier : "\(CardNotice.onScreenIdentifier).\(region.id)")
    }

    /// The stay is confirmed: the card (single tier), or the alert (two tiers), unless the cool-down holds it back.
    mutating func notify(_ region: Region, trigger: CardTrigger, at time: Double) {
        guard wallet.card(for: region.networkId) != nil else { return }
        if twoTiers {
            confirmAlert(region, trigger: trigger, at: time)
            return
        }
        guard let n = admitAlert(region, trigger: trigger, at: time) else { return }
        emit(.postCard(n))
    }

    /// The alert's notice, counted against the cool-down of its scope; nil (and a note) when the cool-down holds it back.
    mutating func admitAlert(_ region: Region, trigger: CardTrigger, at time: Double) -> CardNotice? {
        let n = notice(region, trigger)
        let cooldownKey = app.cooldownScope == .location ? (n.locationIds.first ?? region.id) : region.networkId
        if let last = lastNotified[cooldownKey], time - last < app.cooldownSeconds {
            emit(.note(.cardSuppressed(n)))
            return nil
        }
        lastNotified[cooldownKey] = time
        networkVisits[region.networkId, default: 0] += 1
        return n
    }
}
