import Foundation

extension ReplayRunner {
    /// What `replayUnscored` did: fixes the OS was given and refresh calls the app made.
    public struct UnscoredRun: Sendable {
        public var fixes: Int
        public var refreshCalls: Int
    }

    /// Replays `trace` once under `strategy` through the fix model, the virtual OS and the app, with no ground truth,
    /// no per-event log and no report: the hot path alone, for timing it and for load generation.
    public static func replayUnscored(_ trace: Trace, strategy: Strategy, context: ReplayContext) async -> UnscoredRun {
        let seed = ReplayRunner.seed(context.scenario.seed, trace: trace)
        let fixes = FixGenerator.generate(trace, model: context.scenario.fixes, seed: seed)
        let recorder = Recorder(keepEvents: false)
        let manager = VirtualLocationManager(os: context.scenario.os, seed: seed &+ 1)
        let app = PhoneApp(
            strategy: strategy, scenario: context.scenario, wallet: context.wallet, manager: manager,
            refresher: context.refresher, recorder: recorder, oracleRegions: [], seed: seed &+ 2,
            traceStart: fixes.first?.time ?? 0)
        await ReplayRunner.simulate(fixes: fixes, app: app, manager: manager, recorder: recorder)
        return UnscoredRun(fixes: fixes.count, refreshCalls: recorder.refreshCalls)
    }
}
