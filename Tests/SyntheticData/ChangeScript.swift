import Geo
import LocationStore

/// A store's contents changed at random, step by step, for tests that bring an index up to date by changes
/// (`LocationIndex.applying`) and compare it with a build from scratch: inserts, moves, renames, deletes, network
/// setting changes, new networks and merges, around places of every density.
public struct ChangeScript: Sendable {
    /// Places the changes happen around: two in dense Manhattan (neighbour counts saturate), a suburb, open country.
    public static let centres = [
        Coordinate(uncheckedLatitude: 40.7540, longitude: -73.9840), Coordinate(uncheckedLatitude: 40.7300, longitude: -73.9950),
        Coordinate(uncheckedLatitude: 41.7508, longitude: -88.1535), Coordinate(uncheckedLatitude: 44.3683, longitude: -100.3510),
    ]
    public static let hours: [String?] = [nil, nil, "Mo-Fr 08:00-20:00", "24/7", "Sa-Su 10:00-16:00; Mo-Fr 07:00-09:00", "not a schedule"]

    public var records: [String: IndexRecord] = [:]
    public var networks: [String: Network] = [:]
    public var aliases: [String: [String]] = [:]
    /// Networks deleted so far (a request may still name one).
    public var removedNetworks: [String] = []
    var nextId = 0
    public var random: SeededRandom

    /// Every network as a store lists it.
    public var summaries: [NetworkSummary] {
        networks.keys.sorted().map { id in
            NetworkSummary(
                network: networks[id]!, locationCount: records.values.filter { $0.networkId == id }.count,
                aliases: aliases[id] ?? [])
        }
    }

    /// The aliases as (alias, network) pairs, in a stable order.
    public var aliasPairs: [(alias: String, networkId: String)] {
        aliases.keys.sorted().flatMap { id in aliases[id]!.map { (alias: $0, networkId: id) } }
    }

    /// Every location, in id order.
    public var locations: [Location] { records.keys.sorted().map { Self.location(records[$0]!) } }

    /// The record as a store keeps it; its id is `loc_<network>_<external id>`, as every store's is.
    public static func location(_ r: IndexRecord) -> Location {
        Location(
            networkId: r.networkId, externalId: externalId(r), name: r.name, address: r.address, coordinate: r.coordinate,
            radiusMeters: r.radiusMeters, venueRadiusMeters: r.venueRadiusMeters, openingHours: r.openingHours,
            positionUncertaintyMeters: r.positionUncertaintyMeters)
    }

    static func externalId(_ r: IndexRecord) -> String { String(r.id.dropFirst("loc_\(r.networkId)_".count)) }

    public mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }

    public mutating func point(near c: Coordinate, within meters: Double) -> Coordinate {
        Sphere.destination(from: c, meters: uniform(0...meters), bearing: uniform(0...360))
    }

    mutating func newRecord(network: String? = nil) -> IndexRecord {
        nextId += 1
        let net = network ?? networks.keys.sorted().randomElement(using: &random)!
        let near: Coordinate
        // A third of new locations sit next to one of their network (merges), the rest around a centre.
        if Int.random(in: 0..<3, using: &random) == 0,
            let peer = records.values.filter({ $0.networkId == net }).sorted(by: { $0.id < $1.id }).randomElement(using: &random)
        {
            near = point(near: peer.coordinate, within: 120)
        } else {
            near = point(near: ChangeScript.centres.randomElement(using: &random)!, within: 4_000)
        }
        let large = networks[net]!.isLargeArea
        return IndexRecord(
            id: Location.makeId(networkId: net, externalId: "L\(nextId)"), networkId: net,
            name: Int.random(in: 0..<5, using: &random) == 0 ? "" : "Store \(nextId)",
            address: "\(nextId) Main St", coordinate: near,
            radiusMeters: Int.random(in: 0..<12, using: &random) == 0 ? uniform(40...400) : nil,
            venueRadiusMeters: large ? uniform(300...3_000) : nil, openingHours: ChangeScript.hours.randomElement(using: &random)!,
            // One in eight a coarse or geocoded point: its uncertainty floors the radius, also when neighbours move it.
            positionUncertaintyMeters: Int.random(in: 0..<8, using: &random) == 0 ? uniform(20...600) : nil)
    }

    /// A store of `count` locations in five networks (one with a default radius, one of large venues).
    public init(seed: UInt64, count: Int) {
        random = SeededRandom(seed: seed)
        var world = self
        for n in [
            Network(id: "acme", name: "Acme Grocery", category: "grocery"), Network(id: "beta", name: "Beta Coffee", category: "coffee"),
            Network(id: "cafe", name: "Cafe Uno", defaultRadiusMeters: 150), Network(id: "park", name: "Fun Park", isLargeArea: true),
            Network(id: "drug", name: "Drug Mart", category: "pharmacy"),
        ] {
            world.networks[n.id] = n
        }
        world.aliases["acme"] = ["Acme Foods"]
        for _ in 0..<count {
            let r = world.newRecord()
            world.records[r.id] = r
        }
        self = world
    }

    /// One random step: what changed (ids) and whether a network's serving settings moved (all its locations change).
    public mutating func step(operations: Int) -> StoreChanges {
        var world = self
        defer { self = world }
        var touched = Set<String>()
        for _ in 0..<operations {
            let ids = world.records.keys.sorted()
            switch Int.random(in: 0..<100, using: &world.random) {
            case 0..<30:
                let r = world.newRecord()
                world.records[r.id] = r
                touched.insert(r.id)
            case 30..<50 where !ids.isEmpty:
                let id = ids.randomElement(using: &world.random)!
                var r = world.records[id]!
                r.coordinate = world.point(near: r.coordinate, within: Bool.random(using: &world.random) ? 300 : 3_000)
                world.records[id] = r
                touched.insert(id)
            case 50..<60 where !ids.isEmpty:
                let id = ids.randomElement(using: &world.random)!
                world.records[id]!.name = "Renamed \(id)"
                world.records[id]!.openingHours = ChangeScript.hours.randomElement(using: &world.random)!
                touched.insert(id)
            case 60..<85 where !ids.isEmpty:
                let id = ids.randomElement(using: &world.random)!
                world.records[id] = nil
                touched.insert(id)
            case 85..<90:
                // A network's default radius or name changes: every location of it is served differently.
                let id = ["cafe", "beta"].filter { world.networks[$0] != nil }.randomElement(using: &world.random)
                guard let id else { continue }
                if id == "cafe" {
                    world.networks[id]!.defaultRadiusMeters = world.uniform(60...250)
                } else {
                    world.networks[id]!.name = "Beta \(Int.random(in: 0..<100, using: &world.random))"
                }
                touched.formUnion(world.records.values.filter { $0.networkId == id }.map(\.id))
            case 90..<94:
                // A category is read per network: no location changes.
                if let id = world.networks.keys.sorted().randomElement(using: &world.random) {
                    world.networks[id]!.category = ["grocery", "coffee", "fast-food", nil].randomElement(using: &world.random)!
                }
            case 94..<97:
                // A new network with a few locations, and an alias.
                let id = "new\(world.nextId)"
                world.networks[id] = Network(id: id, name: "New \(world.nextId)", category: "coffee")
                world.aliases[id] = ["Newcomer \(world.nextId)"]
                for _ in 0..<Int.random(in: 1...6, using: &world.random) {
                    let r = world.newRecord(network: id)
                    world.records[r.id] = r
                    touched.insert(r.id)
                }
            default:
                // A merge: one network's locations move to another, and the first is deleted.
                let candidates = world.networks.keys.sorted().filter { $0 != "acme" && !world.networks[$0]!.isLargeArea }
                guard candidates.count >= 2 else { continue }
                let from = candidates.randomElement(using: &world.random)!
                let into = candidates.filter { $0 != from }.randomElement(using: &world.random)!
                // Re-keyed under the network they join, as `mergeNetwork` does.
                for (id, r) in world.records where r.networkId == from {
                    var moved = r
                    moved.networkId = into
                    moved.id = Location.makeId(networkId: into, externalId: Self.externalId(r))
                    world.records[id] = nil
                    world.records[moved.id] = moved
                    touched.formUnion([id, moved.id])
                }
                world.networks[from] = nil
                world.aliases[from] = nil
                world.removedNetworks.append(from)
            }
        }
        let upserted = touched.sorted().compactMap { world.records[$0] }
        let deleted = touched.sorted().filter { world.records[$0] == nil }
        return StoreChanges(version: 0, upserted: upserted, deletedIds: deleted, networks: world.summaries)
    }
}
