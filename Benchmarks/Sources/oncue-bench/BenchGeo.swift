import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore

struct BenchGeo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo",
        abstract: "Geohash encodes/s and circle covers/s on one core.",
        discussion: """
            The baseline is the classic character-by-character bisection encoder, run in the same process.

            Example:
              swift build -c release --package-path Benchmarks && Benchmarks/.build/release/oncue-bench geo --seconds 3
            """
    )
    @Option(help: "Seconds per measurement.") var seconds: Double = 3
    @Flag(help: "Print JSON.") var json = false

    struct Output: Encodable {
        var encodes_per_second: Double
        var baseline_encodes_per_second: Double
        var covers_per_second_2km: Double
        var covers_per_second_50km: Double
        var mean_cells_50km: Double
    }

    func run() async throws {
        var rng = SeededRandom(seed: 1)
        let points = (0..<100_000).map { _ in (Double.random(in: -90...90, using: &rng), Double.random(in: -180...180, using: &rng)) }
        var sink = 0
        let encode = rate(seconds) { i in
            let p = points[i % points.count]
            sink &+= Int(Geohash(latitude: p.0, longitude: p.1, precision: 12).interleaved & 1)
        }
        let baseline = rate(seconds) { i in
            let p = points[i % points.count]
            sink &+= Int(classicEncode(p.0, p.1, 12).utf8.count)
        }
        let centers = points.map { Coordinate(uncheckedLatitude: $0.0, longitude: $0.1) }
        var cells = 0
        var covers = 0
        let cover2 = rate(seconds) { i in sink &+= GeohashCover(center: centers[i % centers.count], radiusMeters: 2_000).cells.count }
        let cover50 = rate(seconds) { i in
            let c = GeohashCover(center: centers[i % centers.count], radiusMeters: 50_000)
            cells += c.cells.count
            covers += 1
        }
        let output = Output(
            encodes_per_second: encode, baseline_encodes_per_second: baseline, covers_per_second_2km: cover2,
            covers_per_second_50km: cover50, mean_cells_50km: Double(cells) / Double(max(1, covers)))
        if sink == 42 { print("") }
        if json {
            print(try jsonString(output))
            return
        }
        print(
            String(
                format: "geohash encode (precision 12): %.2fM/s   baseline (classic bisection): %.2fM/s   ratio %.2f×",
                encode / 1e6, baseline / 1e6, encode / baseline))
        print(String(format: "circle cover 2 km: %.0f/s   50 km: %.0f/s (mean %.1f cells)", cover2, cover50, output.mean_cells_50km))
    }

    func rate(_ seconds: Double, _ body: (Int) -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var n = 0
        while true {
            for _ in 0..<1024 {
                body(n)
                n += 1
            }
            let elapsed = start.duration(to: clock.now)
            let s = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if s >= seconds { return Double(n) / s }
        }
    }

    /// The textbook encoder (bisection, one character at a time) as the baseline.
    func classicEncode(_ lat: Double, _ lon: Double, _ precision: Int) -> String {
        let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz")
        var latRange = (-90.0, 90.0)
        var lonRange = (-180.0, 180.0)
        var result = ""
        var bit = 0
        var ch = 0
        var even = true
        while result.count < precision {
            if even {
                let mid = (lonRange.0 + lonRange.1) / 2
                if lon >= mid {
                    ch |= 1 << (4 - bit)
                    lonRange.0 = mid
                } else {
                    lonRange.1 = mid
                }
            } else {
                let mid = (latRange.0 + latRange.1) / 2
                if lat >= mid {
                    ch |= 1 << (4 - bit)
                    latRange.0 = mid
                } else {
                    latRange.1 = mid
                }
            }
            even.toggle()
            if bit < 4 {
                bit += 1
            } else {
                result.append(alphabet[ch])
                bit = 0
                ch = 0
            }
        }
        return result
    }
}
