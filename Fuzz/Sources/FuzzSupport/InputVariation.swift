import Geo

/// Choices a fuzzer makes besides the input bytes (chunk sizes, parser options), drawn from a hash of the input.
///
/// Taking them from the input's first bytes instead would let libFuzzer steer them, but then no seed would be read
/// as the file it is. A hash keeps every corpus file a plain, valid example of its format, and each input still
/// gets its own choices, so the campaign covers many of them.
public struct InputVariation {
    private var random: SeededRandom

    public init(_ bytes: [UInt8]) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        random = SeededRandom(seed: h)
    }

    public mutating func next() -> UInt64 { random.next() }

    /// A value in `0..<bound` (bound > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    public mutating func coin() -> Bool { next() & 1 == 1 }

    /// Piece lengths that add up to `total`: mostly tiny (1–3 bytes, the boundaries where a sequence or a record
    /// straddles two reads), sometimes larger.
    public mutating func chunkSizes(total: Int) -> [Int] {
        var sizes: [Int] = []
        var left = total
        while left > 0 {
            let size = min(left, below(4) == 0 ? 1 + below(64) : 1 + below(3))
            sizes.append(size)
            left -= size
        }
        return sizes
    }
}

extension Array where Element == UInt8 {
    /// The array cut into consecutive pieces of the given lengths.
    public func pieces(_ sizes: [Int]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0
        for size in sizes {
            out.append(Array(self[start..<(start + size)]))
            start += size
        }
        return out
    }
}
