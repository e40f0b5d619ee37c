import Geo
import LocationStore
import Synchronization

/// The changes a store made since a full build, laid over that build: the locations written since (and the build's
/// locations whose radius, density or merge flag those writes changed), in small trees of their own, and the build's
/// locations they replace or delete, skipped by every search of the build's trees.
///
/// An index with an overlay answers exactly as a build from scratch at the same store version would (the differential
/// tests hold it to that): every derived value of a location (its density of neighbours, its radius, whether it may
/// merge) is worked out again wherever a change could have moved it, and a location whose value moved is served from
/// the overlay. The build's arrays and trees are shared, not copied, so an update costs what changed, not what the
/// store holds.
final class IndexOverlay: Sendable {
    /// The full build the changes lie over (the next update starts from it again, with all changes so far).
    let base: LocationIndex
    /// Every change since the build, by location id: the record now, or nil for a deletion.
    let pending: [String: IndexRecord?]
    /// The build's locations not to be served from its trees: changed, deleted, or served from the overlay.
    let hidden: MemberSet
    /// Texts of the overlay's locations, numbered from `base.baseCount` on.
    let texts: HugePageArray<LocationText>
    let global: KDTree
    /// By network number (nil: no location of that network in the overlay).
    let byNetwork: [KDTree?]

    init(
        base: LocationIndex, pending: [String: IndexRecord?], hidden: MemberSet, texts: HugePageArray<LocationText>, global: KDTree,
        byNetwork: [KDTree?]
    ) {
        self.base = base
        self.pending = pending
        self.hidden = hidden
        self.texts = texts
        self.global = global
        self.byNetwork = byNetwork
    }

    var byteCount: Int {
        texts.count * MemoryLayout<LocationText>.stride + hidden.wordCount * 8 + global.byteCount
            + byNetwork.reduce(0) { $0 + ($1?.byteCount ?? 0) }
    }

    /// Searches one of the build's trees, passing over its hidden locations.
    @inline(__always)
    func searchBase<V: KDTreeVisitor>(_ tree: KDTree, _ q: UnitVector, _ visitor: inout V) {
        tree.search(q.x, q.y, q.z, &visitor, skipping: hidden.pointer)
    }
}

/// A set of location numbers below a bound, one bit each.
///
/// Tested for every point a search of the build's trees visits: the words are read through a pointer, without the
/// array's bounds check (a tree's points are all below the bound the set was made for).
struct MemberSet: @unchecked Sendable {
    private var storage: Storage

    /// The words, owned by a class so that copies of the set share them until one is changed.
    private final class Storage {
        let pointer: UnsafeMutablePointer<UInt64>
        let count: Int

        init(count: Int) {
            self.count = count
            pointer = .allocate(capacity: max(1, count))
            pointer.initialize(repeating: 0, count: max(1, count))
        }

        deinit { pointer.deallocate() }
    }

    init(count: Int) { storage = Storage(count: (count + 63) / 64) }

    var wordCount: Int { storage.count }

    /// The words, for `KDTree.search(skipping:)`: valid while the set is.
    var pointer: UnsafePointer<UInt64> { UnsafePointer(storage.pointer) }

    @inline(__always)
    func contains(_ m: UInt32) -> Bool {
        let i = Int(m)
        assert(i >> 6 < storage.count, "a member beyond the set's bound")
        return (storage.pointer[i >> 6] >> UInt64(i & 63)) & 1 == 1
    }

    mutating func insert(_ m: UInt32) {
        let i = Int(m)
        precondition(i >> 6 < storage.count, "a member beyond the set's bound")
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage(count: storage.count)
            copy.pointer.update(from: storage.pointer, count: storage.count)
            storage = copy
        }
        storage.pointer[i >> 6] |= UInt64(1) << UInt64(i & 63)
    }
}

/// A full build's location ids → location numbers: hashes sorted, each checked against the id it stands for.
struct IdLookup: Sendable {
    private let keys: [UInt64]
    private let members: [UInt32]

    init(_ index: LocationIndex) {
        var pairs = (0..<index.baseCount).map { m in (UInt64(bitPattern: Int64(index.texts[m].id.hashValue)), UInt32(m)) }
        pairs.sort { $0.0 < $1.0 }
        keys = pairs.map(\.0)
        members = pairs.map(\.1)
    }

    func member(of id: String, in index: LocationIndex) -> UInt32? {
        let key = UInt64(bitPattern: Int64(id.hashValue))
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        while lo < keys.count && keys[lo] == key {
            if index.texts[Int(members[lo])].id == id { return members[lo] }
            lo += 1
        }
        return nil
    }
}

extension LocationIndex {
    /// Searches a card network's locations: the build's tree (past its hidden locations) and the overlay's.
    @inline(__always)
    func searchNetwork<V: KDTreeVisitor>(_ k: UInt32, _ q: UnitVector, _ visitor: inout V) {
        let tree = networkTrees[Int(k)]
        guard let overlay else {
            tree.search(q.x, q.y, q.z, &visitor)
            return
        }
        if !tree.isEmpty { overlay.searchBase(tree, q, &visitor) }
        overlay.byNetwork[Int(k)]?.search(q.x, q.y, q.z, &visitor)
    }

    /// Searches every location.
    @inline(__always)
    func searchAll<V: KDTreeVisitor>(_ q: UnitVector, _ visitor: inout V) {
        guard let overlay else {
            globalTree.search(q.x, q.y, q.z, &visitor)
            return
        }
        overlay.searchBase(globalTree, q, &visitor)
        overlay.global.search(q.x, q.y, q.z, &visitor)
    }

    /// Starts loading the root nodes of a card network's trees (the build's and the overlay's). Each is read only by
    /// the queries that carry its card, so it is seldom in cache; started before the searches, the loads overlap
    /// instead of coming one after another inside them.
    @inline(__always)
    func prefetchNetwork(_ k: UInt32) {
        networkTrees[Int(k)].prefetchRoot()
        overlay?.byNetwork[Int(k)]?.prefetchRoot()
    }

    /// The largest region radius of a network (an upper bound: a hidden location may count).
    func networkMaxRadius(_ k: UInt32) -> Double {
        max(networkTrees[Int(k)].maxRadius, overlay?.byNetwork[Int(k)]?.maxRadius ?? 0, radiusBound)
    }

    /// The largest region radius of any location (an upper bound).
    var globalMaxRadius: Double { max(globalTree.maxRadius, overlay?.global.maxRadius ?? 0, radiusBound) }

    func hasLocations(_ k: UInt32) -> Bool { networkCounts[Int(k)] > 0 }
}
