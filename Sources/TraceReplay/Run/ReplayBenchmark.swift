import Foundation
import Geo
import LocationStore
import RegionRefresh

/// Times the replay hot path (fix model, virtual OS, app, refresh calls) without ground truth or reports.
public enum ReplayBenchmark {
    /// A synthetic drive: `count` fixes at 1 Hz, 12 m/s, turning gently (seeded), starting at `start`.
    public static func syntheticTrace(start: Coordinate, count: Int, seed: UInt64, name: String) -> Trace {
        var rng = SeededRandom(seed: seed)
        var here = start
        var bearing = Double.random(in: 0..<360, using: &rng)
        var fixes: [TraceFix] = []
        fixes.reserveCapacity(count)
        for i in 0..<count {
            fixes.append(TraceFix(time: 1_700_000_000 + Double(i), latitude: here.latitude, longitude: here.longitude))
            bearing += rng.gaussian() * 3
            here = Sphere.destination(from: here, meters: 12, bearing: bearing.truncatingRemainder(dividingBy: 360) + (bearing < 0 ? 360 : 0))
        }
        var report = TraceReport(file: name, format: "synthetic")
        report.points = count
        return Trace(name: name, segments: [fixes], report: report)
    }

    /// Replays `trace` once under `strategy`; returns fixes delivered to the OS and wall seconds.
    public static func replay(_ trace: Trace, strategy: Strategy, context: ReplayContext) async -> (fixes: Int, seconds: Double, refreshCalls: Int) {
        let clock = ContinuousClock()
        let start = clock.now
        let seed = ReplayRunner.seed(context.scenario.seed, trace: trace)
        let fixes = FixGenerator.generate(trace, model: context.scenario.fixes, seed: seed)
        let recorder = Recorder(keepEvents: false)
        let manager = VirtualLocationManager(os: context.scenario.os, seed: seed &+ 1)
        let app = PhoneApp(strategy: strategy, scenario: context.scenario, wallet: context.wallet, manager: manager, refresher: context.refresher,
                           recorder: recorder, oracleRegions: [], seed: seed &+ 2, traceStart: fixes.first?.time ?? 0)
        await ReplayRunner.simulate(fixes: fixes, app: app, manager: manager, recorder: recorder)
        let d = start.duration(to: clock.now)
        return (fixes.count, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, recorder.refreshCalls)
    }
}
