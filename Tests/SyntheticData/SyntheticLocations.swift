import Geo
import LocationStore

/// Deterministic, city-clustered synthetic chain locations for benchmarks and property tests.
///
/// Shaped like the anchor kit's data (`shared/bench/anchors/gen_data.py`): cluster centres with
/// Zipf-like weights, Gaussian scatter of 1–20 km around them, networks drawn with P(rank r) ~ 1/r^1.1.
public struct SyntheticLocations: Sequence, Sendable {
    public var count: Int
    public var seed: UInt64
    public var networkCount: Int
    public var clusterCount: Int

    public init(count: Int, seed: UInt64 = 20_251_122, networkCount: Int = 200, clusterCount: Int = 2_000) {
        self.count = count
        self.seed = seed
        self.networkCount = Swift.max(1, networkCount)
        self.clusterCount = Swift.max(1, clusterCount)
    }

    public static func networkId(rank: Int) -> String { "chain-\(rank)" }

    public var networks: [Network] {
        (1...networkCount).map { Network(id: Self.networkId(rank: $0), name: "Chain \($0)", category: Self.categories[$0 % Self.categories.count]) }
    }

    static let categories = ["grocery", "coffee", "fast-food", "pharmacy", "wholesale", "library", "retail"]

    public func makeIterator() -> Iterator { Iterator(self) }

    public struct Iterator: IteratorProtocol {
        let spec: SyntheticLocations
        var rng: SeededRandom
        var produced = 0
        let clusters: [(lat: Double, lon: Double, sigma: Double)]
        let clusterCumulative: [Double]
        let networkCumulative: [Double]

        init(_ spec: SyntheticLocations) {
            self.spec = spec
            var rng = SeededRandom(seed: spec.seed)
            var clusters: [(Double, Double, Double)] = []
            var weights: [Double] = []
            for rank in 1...spec.clusterCount {
                let lat = Double.random(in: -55...65, using: &rng)
                let lon = Double.random(in: -180...180, using: &rng)
                let weight = 1 / Double(rank)
                // Larger cities spread wider: 20 km for the largest down to 1 km.
                let sigma = 1_000 + 19_000 * weight
                clusters.append((lat, lon, sigma))
                weights.append(weight)
            }
            self.clusters = clusters
            self.clusterCumulative = Self.cumulative(weights)
            self.networkCumulative = Self.cumulative((1...spec.networkCount).map { 1 / pow1_1(Double($0)) })
            self.rng = rng
        }

        static func cumulative(_ weights: [Double]) -> [Double] {
            var sum = 0.0
            let total = weights.reduce(0, +)
            return weights.map {
                sum += $0
                return sum / total
            }
        }

        static func pick(_ cumulative: [Double], _ u: Double) -> Int {
            var lo = 0
            var hi = cumulative.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        public mutating func next() -> Location? {
            guard produced < spec.count else { return nil }
            produced += 1
            let cluster = clusters[Self.pick(clusterCumulative, Double.random(in: 0..<1, using: &rng))]
            let north = rng.gaussian() * cluster.sigma
            let east = rng.gaussian() * cluster.sigma
            let center = Coordinate(uncheckedLatitude: cluster.lat, longitude: cluster.lon)
            let bearing = atan2d(east, north)
            let point = Sphere.destination(from: center, meters: (north * north + east * east).squareRoot(), bearing: bearing)
            let network = SyntheticLocations.networkId(rank: Self.pick(networkCumulative, Double.random(in: 0..<1, using: &rng)) + 1)
            let external = String(produced)
            return Location(
                networkId: network, externalId: external, name: "\(network) #\(external)",
                address: "\(produced) Synthetic Street", coordinate: point)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func pow1_1(_ x: Double) -> Double { pow(x, 1.1) }
private func atan2d(_ y: Double, _ x: Double) -> Double {
    let d = atan2(y, x) * 180 / .pi
    return d < 0 ? d + 360 : d
}
