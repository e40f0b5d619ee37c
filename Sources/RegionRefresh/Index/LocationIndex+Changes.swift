import Foundation
import Gazetteer
import Geo
import LocationStore
import Synchronization

extension LocationIndex {
    /// This index brought up to a store's changes without reading every location again, or nil when the changes since
    /// the full build (all of them, those applied before included) are more than `limit` locations: then a full build
    /// costs less than searching beside them, and the caller builds one.
    ///
    /// The result answers every request exactly as a build from scratch at the changes' version would (see
    /// `IndexOverlay`). It shares the full build's arrays and trees; what it adds is about the size of the changes.
    public func applying(_ changes: StoreChanges, limit: Int) -> LocationIndex? {
        let started = ContinuousClock.now
        let base = overlay?.base ?? self
        var pending = overlay?.pending ?? [:]
        for id in changes.deletedIds { pending[id] = .some(nil) }
        for record in changes.upserted { pending[record.id] = .some(record) }
        guard pending.count <= limit else { return nil }
        var work = OverlayWork(base: base, pending: pending, networks: changes.networks)
        return LocationIndex(overlaying: base, parts: work.parts(), started: started)
    }

    /// How many changes are laid over the full build (0 for a full build).
    public var changesApplied: Int { overlay?.pending.count ?? 0 }

    /// Locations served from the overlay: the changed ones, and the build's whose derived values a change moved.
    public var overlayCount: Int { overlay?.texts.count ?? 0 }

    /// Makes what bringing this full build up to date needs (its id table) ahead of the first change.
    public func prepareForChanges() { _ = (overlay?.base ?? self).lookup() }

    /// The id lookup of a full build, made on first use.
    func lookup() -> IdLookup {
        idLookup.withLock { cached in
            if let cached { return cached }
            let made = IdLookup(self)
            cached = made
            return made
        }
    }
}

/// What a snapshot with an overlay holds beside the full build's arrays.
struct OverlayParts {
    var radius: [Float]
    var rule: [RadiusPolicy.Rule]
    var density: [UInt16]
    var placeDensity: [UInt16]
    var network: HugePageArray<UInt32>
    var openingHours: OpeningHoursTable
    var networks: [Network]
    var networkNumber: [String: UInt32]
    var aliases: [(alias: String, networkId: String)]
    var networkCounts: [Int]
    var liveCount: Int
    var overlay: IndexOverlay
}

/// One location of the overlay while it is worked out.
private struct OverlayEntry {
    var point: UnitVector
    var coordinate: Coordinate
    var network: UInt32
    var radius: Float
    var rule: RadiusPolicy.Rule
    var density: UInt16
    var placeDensity: UInt16
    var hours: String?
    var text: LocationText
    var mayMerge = false
    /// The build's location this one replaces, if it is one of the build's served again.
    var baseMember: UInt32?
}

/// Works out an overlay: which of the build's locations a set of changes touches, and their values afterwards.
private struct OverlayWork {
    let base: LocationIndex
    let pending: [String: IndexRecord?]
    let summaries: [NetworkSummary]
    let policy: RadiusPolicy
    var networks: [Network]
    var networkNumber: [String: UInt32] = [:]
    /// The build's locations changed or deleted.
    var removed: MemberSet
    var removedList: [UInt32] = []
    /// The changed locations as they are now, then the build's ones served again.
    var entries: [OverlayEntry] = []
    var changedCount = 0
    /// The build's locations served again from the overlay, by number → entry.
    var reissued: [UInt32: Int] = [:]
    /// The changed locations, for counting neighbours among them (radii zero, all networks).
    var changedTree = KDTree.empty

    init(base: LocationIndex, pending: [String: IndexRecord?], networks summaries: [NetworkSummary]) {
        self.base = base
        self.pending = pending
        self.summaries = summaries
        policy = base.policy
        networks = base.networks
        removed = MemberSet(count: base.baseCount)
    }

    mutating func parts() -> OverlayParts {
        numberNetworks()
        removeChanged()
        addChanged()
        reviseDensities()
        reviseMergeFlags()
        return assemble()
    }

    /// The build's network numbers stay; networks new since it are numbered after them; deleted ones keep their
    /// number but no name resolves to them.
    private mutating func numberNetworks() {
        for s in summaries {
            if let k = base.networkNumber[s.network.id] {
                networks[Int(k)] = s.network
                networkNumber[s.network.id] = k
            } else {
                networkNumber[s.network.id] = UInt32(networks.count)
                networks.append(s.network)
            }
        }
    }

    private mutating func number(ofNetwork id: String) -> UInt32 {
        if let k = networkNumber[id] { return k }
        // As a full build does for a location whose network is not listed: a bare network.
        networkNumber[id] = UInt32(networks.count)
        networks.append(Network(id: id, name: id))
        return UInt32(networks.count - 1)
    }

    private mutating func removeChanged() {
        let lookup = base.lookup()
        for id in pending.keys.sorted() {
            guard let m = lookup.member(of: id, in: base) else { continue }
            removed.insert(m)
            removedList.append(m)
        }
    }

    /// The changed locations as a full build would number their fields, density aside.
    private mutating func addChanged() {
        let places = PopulatedPlaces.shared
        for id in pending.keys.sorted() {
            guard let record = pending[id] ?? nil else { continue }
            let k = number(ofNetwork: record.networkId)
            let c = record.coordinate
            let v = UnitVector(latitude: c.latitude, longitude: c.longitude)
            let people = places.density(x: v.x, y: v.y, z: v.z, latitude: c.latitude, longitude: c.longitude)
            let name = record.name.isEmpty ? networks[Int(k)].name : record.name
            entries.append(
                OverlayEntry(
                    point: v, coordinate: c, network: k, radius: 0, rule: .rural, density: 0,
                    placeDensity: UInt16(min(people.rounded(), Double(UInt16.max))), hours: record.openingHours,
                    text: LocationText(coordinate: c, id: record.id, name: name, address: record.address)))
        }
        changedCount = entries.count
        let n = entries.count
        changedTree = KDTree(
            members: (0..<UInt32(n)).map { $0 }, x: entries.map(\.point.x), y: entries.map(\.point.y), z: entries.map(\.point.z),
            radius: [Float](repeating: 0, count: n), network: entries.map(\.network))
        for j in 0..<n {
            let d = neighbours(of: entries[j].point)
            entries[j].density = d
            let record = pending[entries[j].text.id]!!
            let net = networks[Int(entries[j].network)]
            let r = policy.radius(
                explicit: record.radiusMeters.map { Double(Float($0)) }, networkDefault: net.defaultRadiusMeters,
                isLargeArea: net.isLargeArea || record.venueRadiusMeters != nil,
                venueRadius: record.venueRadiusMeters.map { Double(Float($0)) }, placeDensity: Double(entries[j].placeDensity),
                neighbors: Int(d), uncertainty: record.positionUncertaintyMeters.map { Double(Float($0)) })
            entries[j].radius = Float(r.meters)
            entries[j].rule = r.rule
        }
    }

    /// Locations of any network within the policy's probe of `v` after the changes, at most the cap; `v` is a location
    /// itself (served from the build or changed), which does not count.
    private func neighbours(of v: UnitVector) -> UInt16 {
        let bound = UnitVector.chordSquared(meters: policy.densityProbeMeters)
        let cap = policy.densityCountCap
        var counter = CountingVisitor(boundSquared: bound, cap: cap + 1)
        base.overlaySearch(base.globalTree, v, skipping: removed, &counter)
        let changed = changedTree.count(within: bound, of: v.x, v.y, v.z, cap: cap + 1)
        return UInt16(min(max(0, counter.found + changed - 1), cap))
    }

    /// The build's locations within the probe of a change (where it is now, or where it was) count their neighbours
    /// again; a location whose count moved is served again with its new density and, for a density tier, radius.
    private mutating func reviseDensities() {
        let probe = UnitVector.chordSquared(meters: policy.densityProbeMeters)
        var candidates = Set<UInt32>()
        for v in entries.prefix(changedCount).map(\.point) + removedList.map({ base.unitVector(Int($0)) }) {
            var collect = CollectingVisitor(boundSquared: probe)
            base.overlaySearch(base.globalTree, v, skipping: removed, &collect)
            candidates.formUnion(collect.found)
        }
        for m in candidates.sorted() {
            let i = Int(m)
            let d = neighbours(of: base.unitVector(i))
            guard d != base.density[i] else { continue }
            var radius = base.radius[i]
            // A tier's radius moves with the count, never below the point's uncertainty (`tieredUncertainty` holds
            // the tier-sized locations that have one, whatever rule their floor gave them).
            let floor = base.tieredUncertainty[m]
            if [.dense, .suburban, .rural].contains(base.rule[i]) || floor != nil {
                radius = Float(
                    policy.radius(
                        explicit: nil, networkDefault: nil, isLargeArea: false, venueRadius: nil,
                        placeDensity: Double(base.placeDensity[i]), neighbors: Int(d), uncertainty: floor.map(Double.init)
                    ).meters)
            }
            serveAgain(m, density: d, radius: radius)
        }
    }

    private mutating func serveAgain(_ m: UInt32, density: UInt16, radius: Float) {
        let i = Int(m)
        let text = base.texts[i]
        reissued[m] = entries.count
        entries.append(
            OverlayEntry(
                point: base.unitVector(i), coordinate: text.coordinate, network: base.network[i], radius: radius, rule: base.rule[i],
                density: density, placeDensity: base.placeDensity[i], hours: base.openingHours.text(of: i), text: text,
                baseMember: m))
    }

    /// Whether two locations of one network may merge depends on both radii: every build location of the network near
    /// a change, a location gone, or a radius that moved works its flag out again, as does every overlay location.
    private mutating func reviseMergeFlags() {
        var largest = [Float](repeating: 0, count: networks.count)
        for k in 0..<min(base.networkTrees.count, networks.count) { largest[k] = Float(base.networkTrees[k].maxRadius) }
        for e in entries { largest[Int(e.network)] = max(largest[Int(e.network)], e.radius) }
        var touched: [(point: UnitVector, network: UInt32, radius: Float)] = entries.map { ($0.point, $0.network, $0.radius) }
        for m in removedList { touched.append((base.unitVector(Int(m)), base.network[Int(m)], base.radius[Int(m)])) }
        for (m, e) in reissued { touched.append((entries[e].point, entries[e].network, max(base.radius[Int(m)], entries[e].radius))) }
        var candidates = Set<UInt32>()
        for t in touched where Int(t.network) < base.networkTrees.count {
            let reach = Double(max(t.radius, largest[Int(t.network)])) * (1 + 1e-9)
            var collect = CollectingVisitor(boundSquared: UnitVector.chordSquared(meters: reach))
            base.overlaySearch(base.networkTrees[Int(t.network)], t.point, skipping: removed, &collect)
            candidates.formUnion(collect.found)
        }
        for j in entries.indices {
            entries[j].mayMerge = mayMerge(
                entries[j].point, network: entries[j].network, radius: entries[j].radius, rule: entries[j].rule, self: entries[j].baseMember,
                entry: j, largest: largest)
        }
        for m in candidates.sorted() where reissued[m] == nil {
            let i = Int(m)
            let flag = mayMerge(
                base.unitVector(i), network: base.network[i], radius: base.radius[i], rule: base.rule[i], self: m, entry: nil, largest: largest)
            guard flag != base.mergeFlag(i) else { continue }
            serveAgain(m, density: base.density[i], radius: base.radius[i])
            entries[entries.count - 1].mayMerge = flag
        }
    }

    /// `KDTree.markMergeable`'s answer for one location after the changes: another location of its network (neither a
    /// split venue) within the larger of the two radii, widened by a billionth as there.
    private func mayMerge(
        _ p: UnitVector, network k: UInt32, radius: Float, rule: RadiusPolicy.Rule, self baseSelf: UInt32?, entry: Int?,
        largest: [Float]
    ) -> Bool {
        guard rule != .splitVenue else { return false }
        let own = UnitVector.chordSquared(meters: Double(radius) * (1 + 1e-9))
        let reach = UnitVector.chordSquared(meters: Double(max(radius, largest[Int(k)])) * (1 + 1e-9))
        func pairs(_ q: UnitVector, _ r: Float, _ ruleOfQ: RadiusPolicy.Rule) -> Bool {
            guard ruleOfQ != .splitVenue else { return false }
            let dx = q.x - p.x
            let dy = q.y - p.y
            let dz = q.z - p.z
            let d2 = dx * dx + dy * dy + dz * dz
            return d2 <= own || d2 <= UnitVector.chordSquared(meters: Double(r) * (1 + 1e-9))
        }
        if Int(k) < base.networkTrees.count {
            var collect = CollectingVisitor(boundSquared: reach)
            base.overlaySearch(base.networkTrees[Int(k)], p, skipping: removed, &collect)
            for m in collect.found where m != baseSelf {
                let i = Int(m)
                let r = reissued[m].map { entries[$0].radius } ?? base.radius[i]
                if pairs(base.unitVector(i), r, base.rule[i]) { return true }
            }
        }
        var near = CollectingVisitor(boundSquared: reach)
        changedTree.search(p.x, p.y, p.z, &near)
        for j in near.found where Int(j) != entry {
            let e = entries[Int(j)]
            if e.network == k && pairs(e.point, e.radius, e.rule) { return true }
        }
        return false
    }

    private func assemble() -> OverlayParts {
        let n = base.baseCount
        var hidden = removed
        for m in reissued.keys { hidden.insert(m) }
        let d = entries.count
        var counts = base.networkCounts + [Int](repeating: 0, count: networks.count - base.networkCounts.count)
        for m in removedList { counts[Int(base.network[Int(m)])] -= 1 }
        for (m, _) in reissued { counts[Int(base.network[Int(m)])] -= 1 }
        for e in entries { counts[Int(e.network)] += 1 }
        let x = entries.map(\.point.x)
        let y = entries.map(\.point.y)
        let z = entries.map(\.point.z)
        let radius = entries.map(\.radius)
        let network = entries.map(\.network)
        let rule = entries.map(\.rule)
        let offset = UInt32(n)
        let global = KDTree(members: (0..<UInt32(d)).map { $0 }, x: x, y: y, z: z, radius: radius, network: network, memberOffset: offset)
        var groups = [[UInt32]](repeating: [], count: networks.count)
        for j in 0..<d { groups[Int(network[j])].append(UInt32(j)) }
        let byNetwork = groups.map { g in
            g.isEmpty ? nil : KDTree(members: g, x: x, y: y, z: z, radius: radius, network: network, memberOffset: offset)
        }
        let flags = entries.map(\.mayMerge)
        rule.withUnsafeBufferPointer { rule in
            flags.withUnsafeBufferPointer { flags in
                for tree in [global] + byNetwork.compactMap({ $0 }) { tree.tag(rule: rule, mayMerge: flags, memberOffset: offset) }
            }
        }
        let texts = HugePageArray(count: d) { entries[$0].text }
        var aliases: [(alias: String, networkId: String)] = []
        for s in summaries { for a in s.aliases { aliases.append((alias: a, networkId: s.network.id)) } }
        let overlay = IndexOverlay(base: base, pending: pending, hidden: hidden, texts: texts, global: global, byNetwork: byNetwork)
        return OverlayParts(
            radius: base.radius + radius, rule: base.rule + rule, density: base.density + entries.map(\.density),
            placeDensity: base.placeDensity + entries.map(\.placeDensity),
            network: HugePageArray(count: n + d) { $0 < n ? base.network[$0] : network[$0 - n] },
            openingHours: base.openingHours.appending(entries.map(\.hours), after: n), networks: networks,
            networkNumber: networkNumber, aliases: aliases, networkCounts: counts,
            liveCount: n - removedList.count + changedCount, overlay: overlay)
    }
}

extension LocationIndex {
    /// The unit vector of one of the build's locations.
    func unitVector(_ m: Int) -> UnitVector {
        let c = texts[m].coordinate
        return UnitVector(latitude: c.latitude, longitude: c.longitude)
    }

    /// Searches one of the build's trees from `v`, passing over `skipped`.
    func overlaySearch<V: KDTreeVisitor>(_ tree: KDTree, _ v: UnitVector, skipping skipped: MemberSet, _ visitor: inout V) {
        withExtendedLifetime(skipped) { tree.search(v.x, v.y, v.z, &visitor, skipping: skipped.pointer) }
    }
}

/// Counts points within a bound, stopping once it has `cap`.
private struct CountingVisitor: KDTreeVisitor {
    var boundSquared: Double
    let cap: Int
    var found = 0
    var reachMeters: Double { .infinity }

    init(boundSquared: Double, cap: Int) {
        self.boundSquared = boundSquared
        self.cap = cap
    }

    mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
        found += 1
        if found >= cap { boundSquared = -1 }
    }
}

/// Every location number within a bound.
private struct CollectingVisitor: KDTreeVisitor {
    let boundSquared: Double
    var found: [UInt32] = []
    var reachMeters: Double { .infinity }

    init(boundSquared: Double) { self.boundSquared = boundSquared }

    mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) { found.append(record.pointee.member) }
}
