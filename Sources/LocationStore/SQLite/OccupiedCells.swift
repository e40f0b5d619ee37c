import Geo

/// The geohash cells that a bulk import has put rows of each network into, as a fixed-size bit set
/// (a one-hash Bloom filter): "no" is certain, "maybe" means the store must look.
///
/// For a network that had no locations when the import began, every near-duplicate candidate is a
/// row of the import itself, so a row whose search cells hold none of its network's rows needs no
/// index probe. On a first load that is almost every row; a probe cost a B-tree seek per row.
/// The size is fixed when the import begins, so memory does not grow with the file.
struct OccupiedCells {
    /// The cell precision recorded (≈ 38 × 19 m cells, what a metre-scale near-duplicate search uses).
    static let precision = 8
    static let minBits = 1 << 16
    /// 8 MiB: at a million rows, about one probe in 30 is a false "maybe".
    static let maxBits = 1 << 26

    private var words: [UInt64]
    private let mask: UInt64

    /// About 64 bits per expected row, a power of two between `minBits` and `maxBits`; the largest when unknown.
    init(expectedRows: Int?) {
        let wanted = expectedRows.map { $0.multipliedReportingOverflow(by: 64).overflow ? Self.maxBits : $0 * 64 } ?? Self.maxBits
        var bits = Self.minBits
        while bits < wanted && bits < Self.maxBits { bits <<= 1 }
        words = [UInt64](repeating: 0, count: bits / 64)
        mask = UInt64(bits - 1)
    }

    mutating func insert(network: UInt64, cell: Geohash) {
        let bit = slot(network: network, cell: cell)
        words[Int(bit >> 6)] |= 1 << (bit & 63)
    }

    func mayContain(network: UInt64, cell: Geohash) -> Bool {
        let bit = slot(network: network, cell: cell)
        return words[Int(bit >> 6)] & (1 << (bit & 63)) != 0
    }

    /// splitmix64's finalizer over the cell's interleaved bits and the network's number.
    private func slot(network: UInt64, cell: Geohash) -> UInt64 {
        var x = cell.interleaved &+ network &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return (x ^ (x >> 31)) & mask
    }
}
