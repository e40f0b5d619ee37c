import Foundation
import Geo
import LocationStore
import RegionRefresh

/// Everything a batch shares: the scenario, the wallet, the card locations and the refresh service.
public struct ReplayContext: Sendable {
    public var scenario: Scenario
    public var wallet: Wallet
    public var catalog: StoreCatalog
    public var refresher: any RegionRefreshing
    /// Keep per-event logs and monitored intervals (CSV and HTML need them; benchmarks do not).
    public var keepEvents: Bool

    public init(scenario: Scenario, wallet: Wallet, catalog: StoreCatalog, refresher: any RegionRefreshing, keepEvents: Bool = true) {
        self.scenario = scenario
        self.wallet = wallet
        self.catalog = catalog
        self.refresher = refresher
        self.keepEvents = keepEvents
    }
}

/// One strategy's run on one trace, with the detail the reports need.
public struct StrategyRun: Sendable {
    public var strategy: Strategy
    public var metrics: StrategyMetrics
    public var events: [ReplayEvent]
    public var intervals: [MonitoredInterval]
    public var outcomes: [VisitOutcome]
}

/// One trace replayed under every strategy plus the ideal oracle.
public struct TraceRun: Sendable {
    public var trace: Trace
    public var phoneFixes: Int
    public var stores: [CandidateStore]
    public var visits: [Visit]
    public var passThroughs: [PassThrough]
    public var runs: [StrategyRun]
    public var oracle: StrategyRun
}

/// Replays traces on a virtual clock: no sleeping, every delay is a timestamp.
public enum ReplayRunner {
    /// A seed per trace that does not depend on batch order: the scenario seed mixed with the trace name (FNV-1a).
    public static func seed(_ base: UInt64, name: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return base ^ h
    }

    public static func run(_ trace: Trace, strategies: [Strategy], context: ReplayContext) async -> TraceRun {
        let scenario = context.scenario
        let seed = seed(scenario.seed, name: trace.name)
        let stores = context.catalog.candidates(for: trace, margin: scenario.groundTruth.candidateMarginMeters)
        let truth = GroundTruth.compute(trace, stores: stores, model: scenario.groundTruth)
        let hours = trace.activeSeconds / 3600
        let fixes = FixGenerator.generate(trace, model: scenario.fixes, seed: seed)
        var runs: [StrategyRun] = []
        for strategy in strategies {
            runs.append(await runOne(strategy, fixes: fixes, os: scenario.os, scenario: scenario, seed: seed, hours: hours,
                                     truth: truth, stores: stores, context: context))
        }
        // The oracle: every card store of the area, ideal OS, exact fixes.
        var ideal = scenario
        ideal.network = .instant
        let exact = FixGenerator.generate(trace, model: .exact, seed: seed)
        let oracle = await runOne(.oracleStrategy, fixes: exact, os: .ideal, scenario: ideal, seed: seed, hours: hours,
                                  truth: truth, stores: stores, context: context)
        return TraceRun(trace: trace, phoneFixes: fixes.count, stores: stores, visits: truth.visits, passThroughs: truth.passThroughs,
                        runs: runs, oracle: oracle)
    }

    static func runOne(_ strategy: Strategy, fixes: [PhoneFix], os: OSModel, scenario: Scenario, seed: UInt64, hours: Double,
                       truth: (visits: [Visit], passThroughs: [PassThrough]), stores: [CandidateStore], context: ReplayContext) async -> StrategyRun {
        let recorder = Recorder(keepEvents: context.keepEvents)
        let manager = VirtualLocationManager(os: os, seed: seed &+ 1)
        let oracleRegions = strategy.oracle ? stores.map {
            Region(id: $0.location.id, networkId: $0.location.networkId, lat: $0.location.coordinate.latitude, lon: $0.location.coordinate.longitude,
                   radiusMeters: $0.radiusMeters + scenario.groundTruth.nominalAccuracyMeters, priority: 1, name: $0.location.name,
                   address: $0.location.address)
        } : []
        let app = PhoneApp(strategy: strategy, scenario: scenario, wallet: context.wallet, manager: manager,
                           refresher: strategy.oracle ? nil : context.refresher, recorder: recorder, oracleRegions: oracleRegions,
                           seed: seed &+ 2, traceStart: fixes.first?.time ?? 0)
        await simulate(fixes: fixes, app: app, manager: manager, recorder: recorder)
        let (metrics, outcomes) = MetricsCalculator.compute(strategy: strategy.name, hours: hours, visits: truth.visits,
                                                            passThroughs: truth.passThroughs, recorder: recorder, model: scenario.groundTruth)
        return StrategyRun(strategy: strategy, metrics: metrics, events: recorder.events, intervals: recorder.intervals, outcomes: outcomes)
    }

    /// The virtual clock: callbacks due before a fix are delivered first; fences are evaluated at the fix; the app
    /// runs when the OS wakes it.
    static func simulate(fixes: [PhoneFix], app: PhoneApp, manager: VirtualLocationManager, recorder: Recorder) async {
        var queue = EventQueue()
        func drain(_ t: Double) async {
            while true {
                while let (time, event) = queue.popDue(upTo: t) { app.handle(event, at: time, queue: &queue) }
                guard app.pendingBubbleExit != nil else { return }
                await app.refreshAfterBubbleExit(queue: &queue)
            }
        }
        for fix in fixes {
            if recorder.keepEvents { recorder.truePosition = Unit(latitude: fix.trueLatitude, longitude: fix.trueLongitude) }
            if !queue.isEmpty || app.pendingBubbleExit != nil { await drain(fix.time) }
            if let wake = manager.process(fix, queue: &queue) {
                await drain(fix.time)
                await app.wake(fix, reason: wake, queue: &queue)
            }
            if !queue.isEmpty || app.pendingBubbleExit != nil { await drain(fix.time) }
        }
        await drain(.infinity)
        app.finish(at: fixes.last?.time ?? 0)
    }
}
