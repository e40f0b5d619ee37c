import CommandLineOutput
import Foundation

/// Latency samples of one benchmarked method, and the figures reported from them.
struct LatencySample: Encodable {
    var name: String
    var queries: Int
    var seconds: Double
    var queries_per_second: Double
    var p50_us: Double
    var p99_us: Double

    init(name: String, nanoseconds: [UInt64], wallSeconds: Double) {
        self.name = name
        queries = nanoseconds.count
        seconds = wallSeconds
        queries_per_second = wallSeconds > 0 ? Double(nanoseconds.count) / wallSeconds : 0
        let sorted = nanoseconds.sorted()
        func pct(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
        }
        p50_us = pct(0.50)
        p99_us = pct(0.99)
    }
}

/// Runs `body` over `inputs` round-robin for up to `seconds` (and at most `maxCount` calls), timing each call;
/// with `repeatEach` > 1, each input that many times in a row.
func measure<Input>(
    _ name: String, inputs: [Input], seconds: Double, maxCount: Int = .max, repeatEach: Int = 1,
    _ body: (Input) throws -> Void
) rethrows -> LatencySample {
    var samples: [UInt64] = []
    samples.reserveCapacity(min(maxCount, 1_000_000))
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .milliseconds(Int(seconds * 1000))
    var i = 0
    while samples.count < maxCount {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body(inputs[(i / max(1, repeatEach)) % inputs.count])
        samples.append(DispatchTime.now().uptimeNanoseconds - t0)
        i += 1
        if i % 64 == 0 && clock.now >= deadline { break }
    }
    let wall = start.duration(to: clock.now)
    return LatencySample(
        name: name, nanoseconds: samples,
        wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
}

/// Anonymous resident memory of this process in bytes (`RssAnon` in Linux's /proc/self/status), or nil:
/// the heap an index lives in, without the mapped binary and libraries, whose pages the kernel may drop
/// and fault back in at any time.
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("RssAnon:") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
        return kilobytes * 1024
    }
    return nil
}

func printSamples(_ samples: [LatencySample], baseline: String) {
    let base = samples.first { $0.name == baseline }?.queries_per_second ?? 0
    print(
        textTable(
            ["method", "queries", "q/s", "p50 µs", "p99 µs", "× \(baseline)"],
            samples.map {
                [
                    $0.name, String($0.queries), String(format: "%.0f", $0.queries_per_second), String(format: "%.1f", $0.p50_us),
                    String(format: "%.1f", $0.p99_us), base > 0 ? String(format: "%.2f", $0.queries_per_second / base) : "-",
                ]
            }), terminator: "")
}

/// Seconds elapsed since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = start.duration(to: .now)
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
