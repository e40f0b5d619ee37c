import Foundation
import Geo
import LocationStore

/// A location of the index as a listing shows it (the console's map), with the radius its region would have.
public struct IndexedLocation: Sendable, Hashable {
    public var id: String
    public var networkId: String
    public var name: String
    public var address: String?
    public var coordinate: Coordinate
    public var radiusMeters: Double
    /// The rule that chose the radius (dense, suburban, rural, explicit, …).
    public var radiusRule: String
}

extension LocationIndex {
    /// Up to `limit` locations inside `box`, nearest its centre first, and whether the box held more. A box whose
    /// `minLongitude` exceeds its `maxLongitude` crosses the antimeridian.
    ///
    /// The search is a nearest-`limit` search from the box's centre, bounded by the circle through its corners: once
    /// `limit` locations are held, the bound shrinks to the farthest of them, so a world-sized box costs about as
    /// much as a street-sized one.
    public func locations(in box: GeoBox, limit: Int) -> (locations: [IndexedLocation], truncated: Bool) {
        guard limit > 0, count > 0 else { return ([], false) }
        let crosses = box.minLongitude > box.maxLongitude
        let width = crosses ? box.maxLongitude + 360 - box.minLongitude : box.maxLongitude - box.minLongitude
        var midLon = box.minLongitude + width / 2
        if midLon > 180 { midLon -= 360 }
        let center = Coordinate(uncheckedLatitude: (box.minLatitude + box.maxLatitude) / 2, longitude: midLon)
        // The circle through the corners, the middles of the north and south edges, and the points of the east and
        // west edges nearest the equator (where a degree of longitude is longest) holds a box up to half the world
        // wide; a wider one is bounded by the whole sphere.
        var reach = width > 180 ? Double.pi * Sphere.earthRadiusMeters : 0.0
        let equatorward = min(max(0, box.minLatitude), box.maxLatitude)
        for lat in [box.minLatitude, equatorward, box.maxLatitude] {
            for lon in [box.minLongitude, midLon, box.maxLongitude] {
                reach = max(reach, Sphere.distance(center, Coordinate(uncheckedLatitude: lat, longitude: lon)))
            }
        }
        let q = UnitVector(latitude: center.latitude, longitude: center.longitude)
        // One more than asked: if it fills, the box holds more than `limit`.
        var collector = BoxCollector(
            box: box, crossesAntimeridian: crosses, limit: limit + 1,
            boundSquared: UnitVector.chordSquared(meters: min(reach * 1.01 + 1, Double.pi * Sphere.earthRadiusMeters)))
        searchAll(q, &collector)
        let kept = collector.sorted()
        let found = kept.prefix(limit).map { member in
            let i = Int(member)
            let text = textRecord(i).pointee
            return IndexedLocation(
                id: text.id, networkId: networks[Int(network[i])].id, name: text.name, address: text.address,
                coordinate: text.coordinate, radiusMeters: Double(radius[i]), radiusRule: rule[i].name)
        }
        return (Array(found), kept.count > limit)
    }
}

/// Keeps the `limit` points nearest the query that lie inside the box (a max-heap on squared chord).
struct BoxCollector: KDTreeVisitor {
    let box: GeoBox
    let crossesAntimeridian: Bool
    let limit: Int
    var boundSquared: Double
    var reachMeters: Double { .infinity }
    private var heap: [(chord: Double, member: UInt32)] = []

    init(box: GeoBox, crossesAntimeridian: Bool, limit: Int, boundSquared: Double) {
        self.box = box
        self.crossesAntimeridian = crossesAntimeridian
        self.limit = limit
        self.boundSquared = boundSquared
        heap.reserveCapacity(limit + 1)
    }

    mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
        let p = record.pointee
        let lat = asin(max(-1, min(1, p.z))) * 180 / .pi
        let lon = atan2(p.y, p.x) * 180 / .pi
        guard lat >= box.minLatitude, lat <= box.maxLatitude else { return }
        let inLongitude =
            crossesAntimeridian
            ? (lon >= box.minLongitude || lon <= box.maxLongitude)
            : (lon >= box.minLongitude && lon <= box.maxLongitude)
        guard inLongitude else { return }
        if heap.count == limit {
            guard chordSquared < heap[0].chord else { return }
            heap[0] = (chordSquared, p.member)
            siftDown(0)
        } else {
            heap.append((chordSquared, p.member))
            siftUp(heap.count - 1)
        }
        // Full: nothing farther than the farthest kept can enter any more.
        if heap.count == limit { boundSquared = heap[0].chord }
    }

    /// The kept points, nearest first (ties by location number, so the answer does not depend on the tree's order).
    func sorted() -> [UInt32] {
        heap.sorted { ($0.chord, $0.member) < ($1.chord, $1.member) }.map(\.member)
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].chord > heap[parent].chord else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var largest = i
            if l < heap.count, heap[l].chord > heap[largest].chord { largest = l }
            if r < heap.count, heap[r].chord > heap[largest].chord { largest = r }
            guard largest != i else { return }
            heap.swapAt(i, largest)
            i = largest
        }
    }
}
