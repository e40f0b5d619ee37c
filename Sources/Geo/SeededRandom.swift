/// SplitMix64: a small, fast, seedable generator, so generated data, the simulated phones and property tests are
/// reproducible.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal deviate (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * _log(u1)).squareRoot() * _cos(2 * .pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
@inline(__always) func _log(_ x: Double) -> Double { Glibc.log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { Glibc.cos(x) }
#elseif canImport(Darwin)
import Darwin
@inline(__always) func _log(_ x: Double) -> Double { Darwin.log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { Darwin.cos(x) }
#endif
