import Geo

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import LocationStore
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The geohash cells that a bulk import has put rows of each network into, as a fixed-size filter:
/// "no" is certain, "maybe" means the store must look.
///
/// For a network that had no locations when the import began, every near-duplicate candidate is a
/// row of the import itself, so a row whose search area holds none of its network's rows needs no
/// index probe. On a first load that is almost every row; a probe cost a B-tree seek per row.
/// The size is fixed when the import begins, so memory does not grow with the file.
///
/// Blocked layout: the 1,024 precision-8 cells of one precision-6 cell (≈ 1.2 × 0.6 km) of one network
/// share a 128-byte block, one bit each, and only which block is hashed. A row's search area lies
/// within one or two blocks, so checking it costs one or two cache misses rather than one per cell.
struct OccupiedCells {
    /// The precision of the cells recorded (≈ 38 × 19 m): what a metre-scale near-duplicate search uses.
    static let precision = 8
    /// Searches wider than this take the index: their areas would span too many cells.
    static let maxRadiusMeters = 20.0
    static let wordsPerBlock = 16
    static let minBlocks = 64
    /// 8 MiB.
    static let maxBlocks = 1 << 16

    private var words: [UInt64]
    private let blockMask: UInt64

    /// About one block per 16 expected rows, a power of two between `minBlocks` and `maxBlocks`; the largest when unknown.
    init(expectedRows: Int?) {
        let wanted = expectedRows.map { $0 / 16 } ?? Self.maxBlocks
        var blocks = Self.minBlocks
        while blocks < wanted && blocks < Self.maxBlocks { blocks <<= 1 }
        words = [UInt64](repeating: 0, count: blocks * Self.wordsPerBlock)
        blockMask = UInt64(blocks - 1)
    }

    mutating func insert(network: UInt64, cell: Geohash) {
        let (word, bit) = position(network: network, lonIndex: cell.lonIndex, latIndex: cell.latIndex)
        words[word] |= bit
    }

    /// Whether a row of `network` may lie within `meters` of `center`. Checks every cell of the search area's
    /// bounding box (a superset of the cells a search reads); answers "maybe" near a pole or the antimeridian,
    /// or for a radius above `maxRadiusMeters`.
    func mayHoldRow(network: UInt64, near center: Coordinate, withinMeters meters: Double) -> Bool {
        guard meters <= Self.maxRadiusMeters else { return true }
        // A point within d of the centre differs by at most d/R in latitude and asin(sin(d/R) / cos φ) in longitude;
        // the margin covers asin's excess over its argument and rounding at these sub-milliradian angles.
        let dLat = meters / Sphere.earthRadiusMeters * 180 / .pi * 1.001 + 1e-9
        let farthestLatitude = abs(center.latitude) + dLat
        guard farthestLatitude < 89 else { return true }
        let dLon = dLat / cos(farthestLatitude * .pi / 180)
        let west = center.longitude - dLon
        let east = center.longitude + dLon
        guard west > -180, east < 180 else { return true }
        let southWest = Geohash(latitude: center.latitude - dLat, longitude: west, precision: Self.precision)
        let northEast = Geohash(latitude: center.latitude + dLat, longitude: east, precision: Self.precision)
        for lat in southWest.latIndex...northEast.latIndex {
            for lon in southWest.lonIndex...northEast.lonIndex {
                let (word, bit) = position(network: network, lonIndex: lon, latIndex: lat)
                if words[word] & bit != 0 { return true }
            }
        }
        return false
    }

    /// The block from splitmix64's finalizer over the network's number and the precision-6 parent cell
    /// (precision 8 has 5 more bits of each index); the bit from the cell's place inside that parent.
    private func position(network: UInt64, lonIndex: UInt64, latIndex: UInt64) -> (word: Int, bit: UInt64) {
        var x = (lonIndex >> 5) | (latIndex >> 5) << 32
        x = x &+ network &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        let block = (x ^ (x >> 31)) & blockMask
        let offset = (lonIndex & 31) | (latIndex & 31) << 5
        return (Int(block) * Self.wordsPerBlock + Int(offset >> 6), 1 << (offset & 63))
    }
}
