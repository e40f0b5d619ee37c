import Foundation
import Geo

/// The rows an import has listed so far, on a grid of cells at least `radius` wide, per network: a row's near
/// duplicates among them are in the 3 × 3 cells around it. The PostGIS writer finds them here as the rows go by (the
/// SQLite writer finds them in its store's index), since the database cannot be asked while rows stream in.
///
/// Rows lie in latitude bands two radii high; each band's cells are two radii wide at the band's poleward edge. The
/// box of one radius around a point then meets at most two bands and two cells of each (four lookups, where cells of
/// one radius need nine), however far north; columns wrap at the antimeridian.
package struct NearDuplicateGrid {
    struct Entry {
        var latitude: Double
        var longitude: Double
        var id: String
        var line: Int32
        var file: Int32
        var network: UInt32
        /// The previous entry of the same cell, -1 for none.
        var next: Int32
    }

    let radiusMeters: Double
    private let bandDegrees: Double
    private var heads = CellHeads()
    private var entries: [Entry] = []
    private var networkNumbers: [String: UInt32] = [:]
    /// The network asked last: rows come in runs of one network, and each is asked about twice (neighbours, insert).
    private var lastNetwork: (name: String, number: UInt32)?

    package init(radiusMeters: Double) {
        self.radiusMeters = radiusMeters
        // Two radii, and a little over, so that rounding never puts a neighbour beyond the box's cells.
        bandDegrees = 2 * max(radiusMeters, 0.01) / Sphere.metersPerDegree * 1.001
    }

    private func band(_ latitude: Double) -> Int32 { Int32((latitude / bandDegrees).rounded(.down)) }

    /// The band's cell width and column count: at least two radii of longitude at the band's poleward edge, and a
    /// whole number of columns around the world, so that the columns wrap exactly at the antimeridian.
    private func columns(of band: Int32) -> (width: Double, count: Int32) {
        let poleward = max(abs(Double(band) * bandDegrees), abs(Double(band + 1) * bandDegrees))
        let cosine = cos(min(poleward, 90) * .pi / 180)
        let needed = cosine > bandDegrees / 360 ? bandDegrees / cosine : 360
        let count = max(1, Int32((360 / needed).rounded(.down)))
        return (360 / Double(count), count)
    }

    private func column(_ longitude: Double, in band: Int32) -> Int32 {
        let (width, count) = columns(of: band)
        let c = Int32(((longitude + 180) / width).rounded(.down))
        return ((c % count) + count) % count
    }

    private mutating func number(_ network: String) -> UInt32 {
        if let last = lastNetwork, last.name == network { return last.number }
        let n: UInt32
        if let known = networkNumbers[network] {
            n = known
        } else {
            n = UInt32(networkNumbers.count)
            networkNumbers[network] = n
        }
        lastNetwork = (network, n)
        return n
    }

    /// Rows listed so far of `network` within the radius of `coordinate` (another id than `id`), in the order the
    /// SQLite store's geohash index would give them (so both stores word a file's warnings alike).
    package mutating func neighbours(
        network: String, coordinate: Coordinate, excludingId id: String, limit: Int = .max
    )
        -> [(id: String, line: Int, file: Int, distance: Double)]
    {
        let n = number(network)
        // The box of one radius around the point (half a band high).
        let reach = bandDegrees / 2
        var found: [(id: String, line: Int, file: Int, distance: Double, geohash: String)] = []
        for b in band(coordinate.latitude - reach)...band(coordinate.latitude + reach) {
            let (width, _) = columns(of: b)
            // Half a cell of longitude at this band's poleward edge is at least one radius anywhere in the band.
            let first = column(coordinate.longitude - width / 2, in: b)
            let last = column(coordinate.longitude + width / 2, in: b)
            var col = first
            while true {
                var i = heads[Self.key(n, b, col)] ?? -1
                while i >= 0 && found.count < limit {
                    // Fields read one by one: copying the entry would retain its id for every row in the cell.
                    let latitude = entries[Int(i)].latitude
                    let longitude = entries[Int(i)].longitude
                    // Two cells may share a key (it is a hash): the network and the distance decide.
                    // Farther apart in latitude alone than the radius: not a neighbour, no haversine needed.
                    if entries[Int(i)].network == n, abs(latitude - coordinate.latitude) <= reach {
                        let d = Sphere.distance(lat1: coordinate.latitude, lon1: coordinate.longitude, lat2: latitude, lon2: longitude)
                        if d <= radiusMeters, entries[Int(i)].id != id {
                            let geohash = Geohash(Coordinate(uncheckedLatitude: latitude, longitude: longitude), precision: 12).string
                            found.append((entries[Int(i)].id, Int(entries[Int(i)].line), Int(entries[Int(i)].file), d, geohash))
                        }
                    }
                    i = entries[Int(i)].next
                }
                if col == last { break }
                col = last
            }
        }
        if found.isEmpty { return [] }
        return found.sorted { ($0.geohash, $0.id) < ($1.geohash, $1.id) }.map { ($0.id, $0.line, $0.file, $0.distance) }
    }

    package mutating func insert(network: String, coordinate: Coordinate, id: String, line: Int, file: Int) {
        let n = number(network)
        let b = band(coordinate.latitude)
        let cell = Self.key(n, b, column(coordinate.longitude, in: b))
        entries.append(
            Entry(
                latitude: coordinate.latitude, longitude: coordinate.longitude, id: id, line: Int32(line), file: Int32(file),
                network: n, next: heads[cell] ?? -1))
        heads[cell] = Int32(entries.count - 1)
    }

    private static func key(_ network: UInt32, _ band: Int32, _ column: Int32) -> UInt64 {
        var h = UInt64(network) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(UInt32(bitPattern: band)) &+ 0xBF58_476D_1CE4_E5B9 &+ (h << 6) &+ (h >> 2)
        h ^= UInt64(UInt32(bitPattern: column)) &+ 0x94D0_49BB_1331_11EB &+ (h << 6) &+ (h >> 2)
        return h & ~(1 << 63)  // the top bit marks an empty slot of CellHeads
    }
}

/// Cell key → the cell's newest entry: open addressing with linear probing, since a row asks for nine cells and
/// `Dictionary`'s seeded hashing of a struct key was a tenth of the import's time. Key and value share a slot, so a
/// probe of a table far bigger than the cache misses once, not twice.
struct CellHeads {
    private struct Slot {
        var key: UInt64
        var value: Int32
    }

    private static let empty: UInt64 = 1 << 63
    private var slots = [Slot](repeating: Slot(key: CellHeads.empty, value: -1), count: 1 << 16)
    private var count = 0

    subscript(key: UInt64) -> Int32? {
        get {
            var i = slot(key)
            while slots[i].key != Self.empty {
                if slots[i].key == key { return slots[i].value }
                i = (i + 1) & (slots.count - 1)
            }
            return nil
        }
        set {
            guard let newValue else { return }
            if 2 * (count + 1) > slots.count { grow() }
            var i = slot(key)
            while slots[i].key != Self.empty && slots[i].key != key { i = (i + 1) & (slots.count - 1) }
            if slots[i].key == Self.empty { count += 1 }
            slots[i] = Slot(key: key, value: newValue)
        }
    }

    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slots.count - 1)
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(key: Self.empty, value: -1), count: old.count * 2)
        count = 0
        for s in old where s.key != Self.empty { self[s.key] = s.value }
    }
}
