import Foundation
import OnCueClient

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
        let machine = ClientStateMachine(
            settings: context.scenario.clientSettings(strategy.app), platform: context.scenario.os.platformLimits, wallet: context.wallet)
        let phone = VirtualPhone(
            machine: machine, manager: manager, recorder: recorder, refresher: context.refresher, network: context.scenario.network,
            seed: seed &+ 2, traceStart: fixes.first?.time ?? 0, motion: nil, motionLatencySeconds: context.scenario.os.motionLatencySeconds)
        await ReplayRunner.simulate(fixes: fixes, phone: phone, manager: manager, recorder: recorder)
        return UnscoredRun(fixes: fixes.count, refreshCalls: recorder.refreshCalls)
    }
}
