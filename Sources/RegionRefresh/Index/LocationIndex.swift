import CPrefetch
import Dispatch
import Foundation
import Gazetteer
import Geo
import LocationStore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An immutable in-memory snapshot of every location, answering radius-bounded nearest-K searches.
///
/// Locations live in flat arrays (structure of arrays), numbered in the order of the global 3-D k-d tree's leaves; that
/// tree serves "any network" searches and one k-d tree per network serves card-network searches, so a
/// sparse network is found quickly even among millions of other locations. Each location's region
/// radius is fixed at build time by the `RadiusPolicy`, from the density of people around it (`PopulatedPlaces`)
/// and of the store's locations (counted with the global tree).
/// Readers share a snapshot without locks; a rebuild makes a new snapshot.
public final class LocationIndex: Sendable {
    public struct Info: Sendable, Hashable, Codable {
        public var locationCount: Int
        public var networkCount: Int
        public var buildSeconds: Double
        public var builtAt: Date
        public var approximateBytes: Int
    }

    public let info: Info
    let policy: RadiusPolicy

    // Per location (index = location number).
    /// Region radius in metres (for split venues, the venue's radius).
    let radius: [Float]
    let rule: [RadiusPolicy.Rule]
    /// Locations of any network within the policy's probe (1 km), capped at its saturation.
    let density: [UInt16]
    /// People per km² around the location (`PopulatedPlaces`), saturating at 65,535.
    let placeDensity: [UInt16]
    /// The locations a density tier sizes that carry a position uncertainty, with it: their radius is never below it,
    /// also when a change nearby sizes them again (`reviseDensities`). Few stores have one, hence a dictionary.
    let tieredUncertainty: [UInt32: Float]
    /// Network number of each location; the global tree's per-point networks too (see `KDTree.pointNetworks`).
    let network: HugePageArray<UInt32>
    /// What a region shows about each location (coordinate, id, name, address) in one 64-byte record, in the
    /// same spatial order as everything else: building a region costs one cache miss, not one per array (those
    /// misses were most of the time per region).
    let texts: HugePageArray<LocationText>
    /// Each location's opening hours, compiled for "closed for the next N minutes?" (empty when no store has any).
    let openingHours: OpeningHoursTable

    // Per network (index = network number).
    let networks: [Network]
    let networkNumber: [String: UInt32]
    /// Every other spelling a request may name a network by (see `networkNumber(named:)`), by its alias key.
    let spellings: [String: UInt32]
    let networkCounts: [Int]
    /// Category number of each network, for time-of-day boosts.
    let networkCategory: [Int32]
    let categories: [String]
    let networkTrees: [KDTree]
    let globalTree: KDTree
    /// Squared chord of the largest region radius: two locations farther apart can never overlap.
    let maxRadiusChordSquared: Double
    /// The least bound the searches take for the largest region radius (0 for a snapshot of the whole store). A
    /// snapshot of one place (`build(from:around:meters:policy:)`) sets it to what any location of the store may
    /// reach, so that its searches look at least as far as the whole store's would: then a selection that stays
    /// well inside its budgets here stays inside them there too (`RegionRefreshEngine.needsFullIndex`).
    let radiusBound: Double
    /// Location numbers below this are the full build's (their texts in `texts`); from it on, the overlay's.
    let baseCount: Int
    /// The changes applied since the full build, searched beside its trees (nil for a full build).
    let overlay: IndexOverlay?
    /// The id → location number table of a full build, made when changes are first applied to it.
    let idLookup = Mutex<IdLookup?>(nil)
    let liveCount: Int

    /// Locations served (a location changed since the full build counts once).
    public var count: Int { liveCount }

    /// A location's text record, wherever it lives.
    @inline(__always) func textRecord(_ location: Int) -> UnsafeMutablePointer<LocationText> {
        location < baseCount ? texts.base + location : overlay.unsafelyUnwrapped.texts.base + (location - baseCount)
    }

    @inline(__always) func id(_ location: Int) -> String { textRecord(location).pointee.id }
    @inline(__always) func coordinate(_ location: Int) -> Coordinate { textRecord(location).pointee.coordinate }

    /// Whether one of the full build's locations may merge with another of its network (`TreePoint.mayMerge`), read
    /// from the global tree: its point `i` is location `i`.
    func mergeFlag(_ location: Int) -> Bool { globalTree.points[location].mayMerge }

    /// Starts loading a location's text record, which the response written for a region reads: the selection
    /// prefetches the records of the regions it chose, so that the misses overlap instead of coming one per region.
    @inline(__always) func prefetchText(_ location: UInt32) {
        // A 64-byte record in memory aligned to 64 bytes: one cache line.
        oncue_prefetch(textRecord(Int(location)))
    }

    /// Builds a snapshot from locations and their networks. Locations of networks not listed get a bare network.
    public static func build(
        locations: some Sequence<Location>, networks: [Network], aliases: [(alias: String, networkId: String)] = [],
        policy: RadiusPolicy = .standard
    ) -> LocationIndex {
        var builder = Builder(networks: networks)
        builder.aliases = aliases
        builder.reserveCapacity(locations.underestimatedCount)
        for location in locations { builder.add(IndexRecord(location)) }
        return builder.finish(policy: policy)
    }

    /// Reads every location of a store and builds a snapshot.
    public static func build(from store: any LocationStore, policy: RadiusPolicy = .standard) async throws -> LocationIndex {
        var builder = try await Builder(networksOf: store)
        try await store.forEachIndexRecord(batchSize: 20_000) { batch in
            for record in batch { builder.add(record) }
        }
        return builder.finish(policy: policy)
    }

    /// Builds a snapshot of the locations within `meters` of `center` only, with every network and alias: what one
    /// request there needs (see `RegionRefreshEngine.reload(for:from:)` for how far that is).
    public static func build(
        from store: any LocationStore, around center: Coordinate, meters: Double, radiusBound: Double = 0,
        policy: RadiusPolicy = .standard
    ) async throws -> LocationIndex {
        // The world's populated places are decoded once per process, a tenth of a second: on the other core, while
        // the store is read (the build needs them only at its end).
        let places = Task.detached(priority: .userInitiated) { _ = PopulatedPlaces.shared }
        var builder = try await Builder(networksOf: store)
        builder.radiusBound = radiusBound
        try await store.forEachIndexRecord(around: center, meters: meters, batchSize: 20_000) { batch in
            for record in batch { builder.add(record) }
        }
        await places.value
        return builder.finish(policy: policy)
    }

    /// Networks with their location counts in this snapshot.
    public var networkSummaries: [NetworkSummary] {
        networks.enumerated().filter { networkNumber[$0.element.id] == UInt32($0.offset) }.map {
            NetworkSummary(network: $0.element, locationCount: networkCounts[$0.offset])
        }
    }

    init(builder b: consuming Builder, policy: RadiusPolicy, started: ContinuousClock.Instant) {
        self.policy = policy
        networks = b.networks
        networkNumber = b.networkNumber
        spellings = Self.spellings(networks: b.networks, numbers: b.networkNumber, aliases: b.aliases)
        let categorized = Self.numberCategories(of: b.networks)
        networkCategory = categorized.perNetwork
        categories = categorized.names
        let n = b.latitudes.count
        // The unit vectors live on in the trees' leaf records only.
        let (x, y, z) = (b.x, b.y, b.z)
        var counts = [Int](repeating: 0, count: b.networks.count)
        for k in b.network { counts[Int(k)] += 1 }
        networkCounts = counts

        // Density needs a tree before radii are known; the tree only uses radii for its bound, so build it with zeros
        // first. The locations are numbered in its leaf order (`Builder.spatialOrder`), so it shares the network array.
        let network = HugePageArray(count: n) { b.network[$0] }
        self.network = network
        let densityTree = KDTree(inLeafOrder: x, y: y, z: z, radius: [Float](repeating: 0, count: n), network: network)
        let density = Self.countNeighbors(tree: densityTree, x: x, y: y, z: z, within: policy.densityProbeMeters, cap: policy.densityCountCap)
        let placeDensity = Self.placeDensities(x: x, y: y, z: z, latitudes: b.latitudes, longitudes: b.longitudes)
        let (radius, rule, tieredUncertainty) = Self.radii(of: b, policy: policy, density: density, placeDensity: placeDensity)
        self.tieredUncertainty = tieredUncertainty
        self.density = density
        self.placeDensity = placeDensity
        self.radius = radius
        self.rule = rule
        var perNetwork = [[UInt32]](repeating: [], count: b.networks.count)
        for (k, c) in counts.enumerated() { perNetwork[k].reserveCapacity(c) }
        for i in 0..<n { perNetwork[Int(b.network[i])].append(UInt32(i)) }
        let built = Self.buildTreesAndTexts(
            densityTree: densityTree, byNetwork: perNetwork, x: x, y: y, z: z, radius: radius, rule: rule, from: b)
        texts = built.texts
        openingHours = b.hours.finish(order: b.order)
        globalTree = built.global
        networkTrees = built.networks
        Self.tag([globalTree] + networkTrees, rule: rule, mayMerge: Self.markMergeable(networks: networkTrees, rule: rule))
        radiusBound = b.radiusBound
        maxRadiusChordSquared = UnitVector.chordSquared(meters: max(globalTree.maxRadius, b.radiusBound)) * (1 + 1e-9)
        baseCount = n
        liveCount = n
        overlay = nil

        let elapsed = started.duration(to: .now)
        let perLocation = MemoryLayout<LocationText>.stride + 4 + 1 + 2 + 2 + 4  // the arrays above
        let bytes = n * perLocation + openingHours.byteCount + globalTree.byteCount + networkTrees.reduce(0) { $0 + $1.byteCount }
        info = Info(
            locationCount: n, networkCount: b.networks.count,
            buildSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            builtAt: Date(), approximateBytes: bytes)
    }

    /// A full build's arrays and trees with changes laid over them (see `LocationIndex+Changes`).
    init(overlaying base: LocationIndex, parts p: OverlayParts, started: ContinuousClock.Instant) {
        policy = base.policy
        radius = p.radius
        rule = p.rule
        density = p.density
        placeDensity = p.placeDensity
        tieredUncertainty = base.tieredUncertainty
        network = p.network
        texts = base.texts
        openingHours = p.openingHours
        networks = p.networks
        networkNumber = p.networkNumber
        spellings = Self.spellings(networks: p.networks, numbers: p.networkNumber, aliases: p.aliases)
        let categorized = Self.numberCategories(of: p.networks)
        networkCategory = categorized.perNetwork
        categories = categorized.names
        networkCounts = p.networkCounts
        // Networks new since the build have no tree of their own there.
        networkTrees = base.networkTrees + (base.networkTrees.count..<p.networks.count).map { _ in KDTree.empty }
        globalTree = base.globalTree
        baseCount = base.baseCount
        liveCount = p.liveCount
        overlay = p.overlay
        radiusBound = base.radiusBound
        maxRadiusChordSquared = max(base.maxRadiusChordSquared, UnitVector.chordSquared(meters: p.overlay.global.maxRadius) * (1 + 1e-9))
        let elapsed = started.duration(to: .now)
        info = Info(
            locationCount: p.liveCount, networkCount: p.networkNumber.count,
            buildSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            builtAt: Date(), approximateBytes: base.info.approximateBytes + p.overlay.byteCount)
    }

    /// Numbers the networks' categories (lower-cased) in order of first appearance; -1 for a network without one.
    private static func numberCategories(of networks: [Network]) -> (perNetwork: [Int32], names: [String]) {
        var categoryNumber: [String: Int32] = [:]
        var categories: [String] = []
        let perNetwork = networks.map { n in
            guard let c = n.category?.lowercased() else { return Int32(-1) }
            if let k = categoryNumber[c] { return k }
            categories.append(c)
            categoryNumber[c] = Int32(categories.count - 1)
            return Int32(categories.count - 1)
        }
        return (perNetwork, categories)
    }

    /// Each location's region radius and the policy rule that chose it, and the uncertainties of the locations a
    /// density tier sizes.
    private static func radii(
        of b: borrowing Builder, policy: RadiusPolicy, density: [UInt16], placeDensity: [UInt16]
    )
        -> (radius: [Float], rule: [RadiusPolicy.Rule], tieredUncertainty: [UInt32: Float])
    {
        let n = b.latitudes.count
        var radius = [Float](repeating: 0, count: n)
        var rule = [RadiusPolicy.Rule](repeating: .rural, count: n)
        var tieredUncertainty: [UInt32: Float] = [:]
        for i in 0..<n {
            let net = b.networks[Int(b.network[i])]
            let byRule = policy.radius(
                explicit: b.explicitRadius[i].map(Double.init), networkDefault: net.defaultRadiusMeters,
                // A location with a venue size of its own is a venue, whatever its network.
                isLargeArea: net.isLargeArea || b.venueRadius[i] != nil, venueRadius: b.venueRadius[i].map(Double.init),
                placeDensity: Double(placeDensity[i]), neighbors: Int(density[i]))
            var r = byRule
            if let u = b.uncertainty[i] {
                if Double(u) > byRule.meters { r = (Double(u), .uncertain) }
                if [.dense, .suburban, .rural].contains(byRule.rule) { tieredUncertainty[UInt32(i)] = u }
            }
            radius[i] = Float(r.meters)
            rule[i] = r.rule
        }
        return (radius, rule, tieredUncertainty)
    }

    /// The global tree (the density count's, given its radii), the per-network trees, and the strings moved into
    /// spatial order, side by side.
    private static func buildTreesAndTexts(
        densityTree: KDTree, byNetwork groups: [[UInt32]], x: [Double], y: [Double], z: [Double],
        radius: [Float], rule: [RadiusPolicy.Rule], from b: borrowing Builder
    )
        -> (global: KDTree, networks: [KDTree], texts: HugePageArray<LocationText>)
    {
        // The builder cannot be captured by the parallel parts; its arrays can.
        let networkOf = b.network
        let order = b.order
        let ids = b.ids
        let names = b.names
        let addresses = b.addresses
        let lats = b.latitudes
        let lons = b.longitudes
        let global = Mutex<KDTree?>(nil)
        let strings = Mutex<HugePageArray<LocationText>?>(nil)
        var trees = [KDTree?](repeating: nil, count: groups.count)
        trees.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            DispatchQueue.concurrentPerform(iterations: 3) { part in
                switch part {
                case 0:
                    let tree = KDTree(takingOver: densityTree, radius: radius)
                    global.withLock { $0 = tree }
                case 1:
                    for k in groups.indices { out[k] = KDTree(members: groups[k], x: x, y: y, z: z, radius: radius, network: networkOf) }
                default:
                    let moved = HugePageArray(count: order.count) { g in
                        let k = Int(order[g])
                        return LocationText(
                            coordinate: Coordinate(uncheckedLatitude: lats[g], longitude: lons[g]),
                            id: ids[k], name: names[k], address: addresses[k])
                    }
                    strings.withLock { $0 = moved }
                }
            }
        }
        return (global.withLock { $0! }, trees.map { $0! }, strings.withLock { $0! })
    }

    /// Which locations have a location of their own network close enough to merge with (`TreePoint.mayMerge`).
    /// Networks are disjoint, so they are searched side by side, each writing only its own locations' flags.
    static func markMergeable(networks: [KDTree], rule: [RadiusPolicy.Rule]) -> [Bool] {
        var flags = [Bool](repeating: false, count: rule.count)
        flags.withUnsafeMutableBufferPointer { buffer in
            rule.withUnsafeBufferPointer { rule in
                nonisolated(unsafe) let out = buffer
                nonisolated(unsafe) let rule = rule
                DispatchQueue.concurrentPerform(iterations: networks.count) { k in networks[k].markMergeable(into: out, rule: rule) }
            }
        }
        return flags
    }

    /// Sets the rules and merge flags in the trees' points, every tree on its own core.
    static func tag(_ trees: [KDTree], rule: [RadiusPolicy.Rule], mayMerge: [Bool]) {
        rule.withUnsafeBufferPointer { rule in
            mayMerge.withUnsafeBufferPointer { flags in
                nonisolated(unsafe) let (rule, flags) = (rule, flags)
                DispatchQueue.concurrentPerform(iterations: trees.count) { k in trees[k].tag(rule: rule, mayMerge: flags) }
            }
        }
    }

    /// Neighbours within `meters` of each location (itself excluded), counted up to `cap`, on all cores.
    /// People per km² around every location, on both cores.
    static func placeDensities(x: [Double], y: [Double], z: [Double], latitudes: [Double], longitudes: [Double]) -> [UInt16] {
        let places = PopulatedPlaces.shared
        return onAllCores(count: x.count) { i in
            let d = places.density(x: x[i], y: y[i], z: z[i], latitude: latitudes[i], longitude: longitudes[i])
            return UInt16(min(d.rounded(), Double(UInt16.max)))
        }
    }

    /// `value(i)` for every i below `count`, computed in chunks on all cores.
    private static func onAllCores(count n: Int, _ value: (Int) -> UInt16) -> [UInt16] {
        var result = [UInt16](repeating: 0, count: n)
        guard n > 0 else { return result }
        let chunks = max(1, min(64, n / 2048))
        result.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            withoutActuallyEscaping(value) { value in
                nonisolated(unsafe) let value = value
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for i in n * chunk / chunks..<n * (chunk + 1) / chunks { out[i] = value(i) }
                }
            }
        }
        return result
    }

    static func countNeighbors(tree: KDTree, x: [Double], y: [Double], z: [Double], within meters: Double, cap: Int) -> [UInt16] {
        let bound = UnitVector.chordSquared(meters: meters)
        return onAllCores(count: x.count) { i in
            let found = tree.count(within: bound, of: x[i], y[i], z[i], cap: cap + 1)
            // Minus itself; at most the cap, which whole subtrees counted at once may overshoot by however the tree
            // is cut (an index brought up to date by changes must count the same as one built from scratch).
            return UInt16(min(max(0, found - 1), cap))
        }
    }
}

extension LocationIndex {
    /// Hands memory that was freed but is still mapped back to the system.
    ///
    /// A build's scratch arrays are freed across several threads' malloc arenas, which glibc keeps mapped;
    /// `malloc_trim` hands them back, so a server's resident memory is the snapshot's, not the build's peak.
    /// Every build calls it; a measurement of the index calls it first, so that it sees the index alone.
    /// (Looked up at run time: Swift's Glibc module does not export `malloc.h`.)
    public static func releaseFreedMemory() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }
}

extension LocationIndex {
    /// Collects locations and networks before the arrays are frozen into a snapshot.
    struct Builder: ~Copyable {
        var networks: [Network]
        var networkNumber: [String: UInt32] = [:]
        /// The store's aliases, for `spellings`.
        var aliases: [(alias: String, networkId: String)] = []
        /// See `LocationIndex.radiusBound`.
        var radiusBound = 0.0
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        /// Unit vectors, made by `spatialOrder()`.
        var x: [Double] = []
        var y: [Double] = []
        var z: [Double] = []
        var network: [UInt32] = []
        var explicitRadius: [Float?] = []
        var venueRadius: [Float?] = []
        /// `positionUncertaintyMeters`: the region's least radius.
        var uncertainty: [Float?] = []
        var ids: [String] = []
        var names: [String] = []
        var addresses: [String?] = []
        var hours = OpeningHoursTable.Builder()
        /// After `spatialOrder()`: the input position of each location (strings are still in input order).
        var order: [UInt32] = []
        let started = ContinuousClock.now

        init(networks: [Network]) {
            self.networks = []
            for n in networks where networkNumber[n.id] == nil {
                networkNumber[n.id] = UInt32(self.networks.count)
                self.networks.append(n)
            }
        }

        /// Every network of the store, with its aliases.
        init(networksOf store: any LocationStore) async throws {
            let summaries = try await store.networks()
            self.init(networks: summaries.map(\.network))
            aliases = summaries.flatMap { s in s.aliases.map { (alias: $0, networkId: s.network.id) } }
        }

        mutating func reserveCapacity(_ n: Int) {
            latitudes.reserveCapacity(n)
            longitudes.reserveCapacity(n)
            network.reserveCapacity(n)
            explicitRadius.reserveCapacity(n)
            venueRadius.reserveCapacity(n)
            uncertainty.reserveCapacity(n)
            ids.reserveCapacity(n)
            names.reserveCapacity(n)
            addresses.reserveCapacity(n)
        }

        mutating func add(_ l: IndexRecord) {
            let k: UInt32
            if let known = networkNumber[l.networkId] {
                k = known
            } else {
                k = UInt32(networks.count)
                networkNumber[l.networkId] = k
                networks.append(Network(id: l.networkId, name: l.networkId))
            }
            latitudes.append(l.coordinate.latitude)
            longitudes.append(l.coordinate.longitude)
            network.append(k)
            explicitRadius.append(l.radiusMeters.map(Float.init))
            venueRadius.append(l.venueRadiusMeters.map(Float.init))
            uncertainty.append(l.positionUncertaintyMeters.map(Float.init))
            ids.append(l.id)
            // A location without a name of its own (its file had no name column) is served with its network's.
            names.append(l.name.isEmpty ? networks[Int(k)].name : l.name)
            addresses.append(l.address)
            hours.add(l.openingHours)
        }

        consuming func finish(policy: RadiusPolicy) -> LocationIndex {
            let started = self.started
            spatialOrder()
            let index = LocationIndex(builder: self, policy: policy, started: started)
            LocationIndex.releaseFreedMemory()
            return index
        }

        /// Renumbers locations in the order of the global k-d tree's leaves (`KDTree.leafOrder`): locations near each
        /// other on the ground sit near each other in every array, so a search touches few cache lines, and the global
        /// tree's points are in location order, so its per-point networks are the `network` array itself.
        mutating func spatialOrder() {
            let n = latitudes.count
            var x = [Double](repeating: 0, count: n)
            var y = x
            var z = x
            for i in 0..<n {
                let v = UnitVector(latitude: latitudes[i], longitude: longitudes[i])
                (x[i], y[i], z[i]) = (v.x, v.y, v.z)
            }
            let order = KDTree.leafOrder(x: x, y: y, z: z)
            func permuted<T>(_ a: [T]) -> [T] { order.map { a[Int($0)] } }
            self.x = permuted(x)
            self.y = permuted(y)
            self.z = permuted(z)
            latitudes = permuted(latitudes)
            longitudes = permuted(longitudes)
            network = permuted(network)
            explicitRadius = permuted(explicitRadius)
            venueRadius = permuted(venueRadius)
            uncertainty = permuted(uncertainty)
            // Strings move in `LocationIndex.init`, beside the tree builds.
            self.order = order
        }
    }
}

/// What a region shows about its location.
struct LocationText {
    var coordinate: Coordinate
    var id: String
    var name: String
    var address: String?
}
