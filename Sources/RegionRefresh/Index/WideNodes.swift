import CPrefetch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stored nodes of a `KDTree`: each holds the boxes of its sixteen children in single precision, one
/// 64-byte cache line per coordinate bound (structure of arrays), so that the distances to all sixteen are a
/// few vector operations on seven lines that arrive together.
///
/// Boxes are rounded outwards and widened by `margin` (about 2.5 m), so a distance computed here in single
/// precision is never above the true distance to anything inside; the bounds a search compares it with are
/// rounded up (`roundedUp`). Single precision only ever makes a search look at a subtree it could have skipped.
struct WideNodes: @unchecked Sendable {
    /// Sixteen single-precision lanes, one per child.
    typealias Lanes = SIMD16<Float>

    /// The node's lines: minimum x, y, z, maximum x, y, z, and the largest region radius (metres) below each child.
    static let fields = 7
    static let stride = fields * MemoryLayout<Lanes>.stride
    /// Widening of every box, in unit-vector units: far above the rounding of a coordinate to single precision
    /// (6e-8) and of the distance arithmetic.
    static let margin = 4e-7
    /// Relative slack on bounds compared in single precision.
    static let slack: Float = 1 + 1e-5

    /// Owns the aligned memory; immutable once the tree is built, hence shareable.
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutableRawPointer
        let count: Int

        init(count: Int) {
            self.count = count
            base = HugePages.allocate(bytes: count * WideNodes.stride, alignment: 64)
            // Every child starts empty: +∞ minimum, −∞ maximum (no query is ever near it).
            for i in 0..<count {
                let node = base + i * WideNodes.stride
                for f in 0..<WideNodes.fields {
                    let value: Float = f < 3 ? .infinity : -.infinity
                    node.storeBytes(of: Lanes(repeating: value), toByteOffset: f * MemoryLayout<Lanes>.stride, as: Lanes.self)
                }
            }
        }

        deinit { free(base) }
    }

    private let storage: Storage
    /// The same address as `storage.base`, read without going through the class on the hot path.
    private let base: UnsafeRawPointer

    init(count: Int) {
        storage = Storage(count: count)
        base = UnsafeRawPointer(storage.base)
    }

    var byteCount: Int { storage.count * Self.stride }

    mutating func set(node: Int, child: Int, box: Box) {
        guard !box.isEmpty else { return }
        precondition(node >= 0 && node < storage.count && child >= 0 && child < 16, "a box written outside the nodes")
        let n = storage.base + node * Self.stride
        func put(_ field: Int, _ value: Float) {
            let line = n + field * MemoryLayout<Lanes>.stride
            line.storeBytes(of: value, toByteOffset: child * MemoryLayout<Float>.stride, as: Float.self)
        }
        put(0, Float(box.lo.0 - Self.margin).nextDown)
        put(1, Float(box.lo.1 - Self.margin).nextDown)
        put(2, Float(box.lo.2 - Self.margin).nextDown)
        put(3, Float(box.hi.0 + Self.margin).nextUp)
        put(4, Float(box.hi.1 + Self.margin).nextUp)
        put(5, Float(box.hi.2 + Self.margin).nextUp)
        put(6, box.maxRadius)
    }

    /// The query point in single precision, one copy per lane.
    struct Query {
        var x: Lanes
        var y: Lanes
        var z: Lanes

        init(_ x: Double, _ y: Double, _ z: Double) {
            self.x = Lanes(repeating: Float(x))
            self.y = Lanes(repeating: Float(y))
            self.z = Lanes(repeating: Float(z))
        }
    }

    /// For each child of `node`, the squared chord from the query to its box: a lower bound for anything inside.
    @inline(__always)
    func nearest(node: Int, _ q: Query) -> Lanes {
        assert(node >= 0 && node < storage.count, "a node read outside the nodes")
        let n = base + node * Self.stride
        let s = MemoryLayout<Lanes>.stride
        let zero = Lanes()
        let dx = Self.max(Self.max(n.load(as: Lanes.self) - q.x, q.x - n.load(fromByteOffset: 3 * s, as: Lanes.self)), zero)
        let dy = Self.max(Self.max(n.load(fromByteOffset: s, as: Lanes.self) - q.y, q.y - n.load(fromByteOffset: 4 * s, as: Lanes.self)), zero)
        let dz = Self.max(Self.max(n.load(fromByteOffset: 2 * s, as: Lanes.self) - q.z, q.z - n.load(fromByteOffset: 5 * s, as: Lanes.self)), zero)
        return dx * dx + dy * dy + dz * dz
    }

    /// For each child of `node`, the squared chord from the query to its box's farthest corner: an upper bound.
    @inline(__always)
    func farthest(node: Int, _ q: Query) -> Lanes {
        let n = base + node * Self.stride
        let s = MemoryLayout<Lanes>.stride
        // The farther side of each axis (minimum ≤ maximum, so one of the two is not negative).
        let fx = Self.max(q.x - n.load(as: Lanes.self), n.load(fromByteOffset: 3 * s, as: Lanes.self) - q.x)
        let fy = Self.max(q.y - n.load(fromByteOffset: s, as: Lanes.self), n.load(fromByteOffset: 4 * s, as: Lanes.self) - q.y)
        let fz = Self.max(q.z - n.load(fromByteOffset: 2 * s, as: Lanes.self), n.load(fromByteOffset: 5 * s, as: Lanes.self) - q.z)
        return fx * fx + fy * fy + fz * fz
    }

    /// For each child of `node`, the largest region radius (metres) below it.
    @inline(__always)
    func radii(node: Int) -> Lanes {
        (base + node * Self.stride).load(fromByteOffset: 6 * MemoryLayout<Lanes>.stride, as: Lanes.self)
    }

    /// The lanes set in a mask as the bits of an integer (lane j is bit j).
    @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD16<Int32>>) -> UInt32 {
        let weights = SIMD16<Int32>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
        return UInt32(SIMD16<Int32>().replacing(with: weights, where: mask).wrappedSum())
    }

    /// Lane-wise maximum in vector instructions (the standard library's `pointwiseMax` is a generic call).
    @inline(__always)
    static func max(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: a .< b) }

    /// Starts loading a node's seven lines.
    @inline(__always)
    func prefetch(node: Int) {
        oncue_prefetch_lines(base + node * Self.stride, Int32(Self.fields))
    }

    /// A single-precision value at least `x` (and at least the rounding of any double-precision computation near it).
    @inline(__always)
    static func roundedUp(_ x: Double) -> Float {
        let f = Float(x)
        return f >= 0 ? f * slack : f / slack
    }

    /// A single-precision value at most `x`.
    @inline(__always)
    static func roundedDown(_ x: Double) -> Float {
        let f = Float(x)
        return f >= 0 ? f / slack : f * slack
    }
}
