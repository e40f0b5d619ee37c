import Foundation
import Geo
import LocationStore
import OnCueClient
import OnCueContract
import RegionRefresh

/// Everything a batch shares: the scenario, the wallet, the card locations and the refresh service.
public struct ReplayContext: Sendable {
    public var scenario: Scenario
    public var wallet: Wallet
    public var catalog: StoreCatalog
    public var refresher: any RegionRefreshing
    /// Keep per-event logs (CSV and HTML need them; sweeps and timings do not).
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
package struct StrategyRun: Sendable {
    package var strategy: Strategy
    package var metrics: StrategyMetrics
    package var events: [ReplayEvent]
    package var intervals: [MonitoredInterval]
    package var notifications: [CardNotification]
    package var outcomes: [MomentOutcome]
    /// Every card's time on screen, quiet ones included.
    package var cardLives: [CardLife] = []
}

/// One trace replayed under every strategy plus both oracles.
package struct TraceRun: Sendable {
    package var trace: Trace
    /// The path ground truth and the ideal oracle follow: the trace itself, or its noiseless path.
    package var truth: Trace
    package var seed: UInt64
    package var phoneFixes: Int
    package var stores: [CandidateStore]
    package var visits: [Visit]
    package var passThroughs: [PassThrough]
    package var moments: [CardMoment]
    /// Each moment's tills, as the scoring took them (for the report's timeline).
    package var tills: [[Till]] = []
    package var runs: [StrategyRun]
    package var oracle: StrategyRun
    package var idealOS: StrategyRun
    package var oracleOS: StrategyRun

    /// The strategies, then `oracle-os`, `ideal-os` and `oracle`.
    package var allRuns: [StrategyRun] { runs + [oracleOS, idealOS, oracle] }
}

/// Replays traces on a virtual clock: no sleeping, every delay is a timestamp.
public enum ReplayRunner {
    /// A trace's seed: the scenario seed mixed with the trace's content (FNV-1a over every fix's time and position),
    /// so a trace gets the same randomness alone, in any batch, under any file name.
    public static func seed(_ base: UInt64, trace: Trace) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ v: UInt64) { for i in 0..<8 { h = (h ^ ((v >> UInt64(8 * i)) & 0xff)) &* 0x100_0000_01b3 } }
        for segment in trace.segments {
            for f in segment {
                mix(f.time.bitPattern)
                mix(f.latitude.bitPattern)
                mix(f.longitude.bitPattern)
            }
        }
        return base ^ h
    }

    package static func run(_ trace: Trace, truth: Trace? = nil, strategies: [Strategy], context: ReplayContext) async -> TraceRun {
        let scenario = context.scenario
        let truthTrace = truth ?? trace
        let seed = seed(scenario.seed, trace: trace)
        let stores = context.catalog.candidates(for: trace, margin: scenario.groundTruth.candidateMarginMeters)
        let found = GroundTruth.compute(truthTrace, stores: stores, model: scenario.groundTruth)
        let moments = CardMoments.merge(found.visits, gapSeconds: scenario.app.cooldownSeconds)
        let hours = trace.activeSeconds / 3600
        let fixes = FixGenerator.generate(trace, model: scenario.fixes, seed: seed)
        var input = MomentScoring.Input(
            strategy: "", hours: hours, moments: moments, visits: found.visits, passThroughs: found.passThroughs,
            model: scenario.groundTruth, cooldownSeconds: scenario.app.cooldownSeconds, oracleOSCaught: nil,
            categories: context.catalog.categories)

        // The references post a card as soon as the OS reports the person in a region: confirmation delays are a
        // strategy's choice, and a reference that waited would measure the wait.
        var reference = scenario
        reference.app.confirmSeconds = 0
        // They post on the OS's word, one kind of card: what a two-tier client's quiet card is measured against.
        reference.app.cardTiers = .one
        // oracle-os first: the other runs' misses are classified against what it caught.
        var unlimited = scenario.os
        unlimited.maxRegions = 1_000_000
        let osRegions = oracleRegions(stores, radius: { max($0 + scenario.groundTruth.nominalAccuracyMeters, scenario.os.minReliableRadiusMeters) })
        let oracleOS = await runOne(
            .oracleOS, fixes: fixes, os: unlimited, scenario: reference, seed: seed, input: input,
            oracleRegions: osRegions, context: context)
        input.oracleOSCaught = Set(oracleOS.outcomes.indices.filter { oracleOS.outcomes[$0].status != .missed })

        var runs: [StrategyRun] = []
        let motion = strategies.contains(where: \.motion) ? MotionTimeline(truthTrace) : nil
        for strategy in strategies {
            runs.append(
                await runOne(
                    strategy, fixes: fixes, os: scenario.os, scenario: scenario, seed: seed, input: input,
                    oracleRegions: [], context: context, motion: motion))
        }
        // ideal-os: exact positions on the true path under the scenario's OS rules, every card location monitored.
        var ideal = reference
        ideal.network = .instant
        var exactModel = FixModel.exact
        exactModel.gapFill = scenario.fixes.gapFill
        let exact = FixGenerator.generate(truthTrace, model: exactModel, seed: seed)
        let idealOS = await runOne(
            .idealOS, fixes: exact, os: unlimited, scenario: ideal, seed: seed, input: input, oracleRegions: osRegions, context: context)
        return TraceRun(
            trace: trace, truth: truthTrace, seed: seed, phoneFixes: fixes.count, stores: stores, visits: found.visits,
            passThroughs: found.passThroughs, moments: moments,
            tills: moments.map { scenario.groundTruth.tills($0, category: context.catalog.categories[$0.networkId]) },
            runs: runs, oracle: oracleRun(moments: moments, wallet: context.wallet, input: input, keepEvents: context.keepEvents),
            idealOS: idealOS, oracleOS: oracleOS)
    }

    /// The top of the scale: the true path known, each moment's card shown at its arrival, no other card. Its served
    /// recall and precision are 100 % by construction; no strategy can do better on any trace.
    static func oracleRun(moments: [CardMoment], wallet: Wallet, input: MomentScoring.Input, keepEvents: Bool) -> StrategyRun {
        let recorder = Recorder(keepEvents: keepEvents)
        for c in moments {
            recorder.notify(
                CardNotification(
                    time: c.arrival, networkId: c.networkId, locationIds: Array(c.locationIds.prefix(1)),
                    card: wallet.card(for: c.networkId)?.name ?? c.networkId, trigger: .arrival, distance: 0))
        }
        var scoring = input
        scoring.strategy = Strategy.oracle.name
        let (metrics, outcomes) = MomentScoring.score(scoring, recorder: recorder)
        return StrategyRun(
            strategy: .oracle, metrics: metrics, events: recorder.events, intervals: [], notifications: recorder.notifications,
            outcomes: outcomes, cardLives: recorder.cardLives)
    }

    static func oracleRegions(_ stores: [CandidateStore], radius: (Double) -> Double) -> [Region] {
        stores.map {
            Region(
                id: $0.location.id, networkId: $0.location.networkId, lat: $0.location.coordinate.latitude, lon: $0.location.coordinate.longitude,
                radiusMeters: radius($0.radiusMeters), priority: 1, name: $0.location.name, address: $0.location.address)
        }
    }

    static func runOne(
        _ strategy: Strategy, fixes: [PhoneFix], os: OSModel, scenario: Scenario, seed: UInt64, input: MomentScoring.Input,
        oracleRegions: [Region], context: ReplayContext, motion: MotionTimeline? = nil
    ) async -> StrategyRun {
        let recorder = Recorder(keepEvents: context.keepEvents)
        let manager = VirtualLocationManager(os: os, seed: seed &+ 1)
        let machine = ClientStateMachine(
            settings: scenario.clientSettings(strategy.app), platform: os.platformLimits, wallet: context.wallet,
            fixedRegions: strategy.isOracle ? oracleRegions : nil, storePositions: context.catalog.positions)
        let phone = VirtualPhone(
            machine: machine, manager: manager, recorder: recorder, refresher: strategy.isOracle ? nil : context.refresher,
            network: scenario.network, seed: seed &+ 2, traceStart: fixes.first?.time ?? 0, motion: strategy.motion ? motion : nil,
            motionLatencySeconds: os.motionLatencySeconds)
        await simulate(fixes: fixes, phone: phone, manager: manager, recorder: recorder)
        var scoring = input
        scoring.strategy = strategy.name
        let (metrics, outcomes) = MomentScoring.score(scoring, recorder: recorder)
        return StrategyRun(
            strategy: strategy, metrics: metrics, events: recorder.events, intervals: recorder.intervals,
            notifications: recorder.notifications, outcomes: outcomes, cardLives: recorder.cardLives)
    }

    /// Fixes replayed between two turns given to the other tasks of the process (a few milliseconds of work).
    static let fixesPerTurn = 256

    /// The virtual clock: callbacks due before a fix are delivered first; the OS sees the fix (fences at its own
    /// cadence); the app runs when the OS wakes it, and sees the fix when it follows a store.
    static func simulate(fixes: [PhoneFix], phone: VirtualPhone, manager: VirtualLocationManager, recorder: Recorder) async {
        var queue = EventQueue()
        func drain(_ t: Double) async {
            while true {
                while let (time, event) = queue.popDue(upTo: t) { phone.handle(event, at: time, queue: &queue) }
                guard phone.hasDeferredWork else { return }
                await phone.runDeferredWork(queue: &queue)
            }
        }
        for (n, fix) in fixes.enumerated() {
            // A trace's replay is seconds of work with no suspension of its own: without a turn given now and then,
            // replays in parallel hold every thread of the cooperative pool, and whatever else the process runs on
            // it (a server's requests, beside a replay in a test process or an app) waits for them to end.
            if n % Self.fixesPerTurn == Self.fixesPerTurn - 1 { await Task.yield() }
            if recorder.keepEvents { recorder.truePosition = fix.trueUnit }
            if !queue.isEmpty || phone.hasDeferredWork { await drain(fix.time) }
            if let wake = manager.process(fix, queue: &queue) {
                await drain(fix.time)
                await phone.wake(fix, reason: wake, queue: &queue)
            }
            phone.locationUpdate(fix, queue: &queue)
            if !queue.isEmpty || phone.hasDeferredWork { await drain(fix.time) }
        }
        await drain(.infinity)
        phone.finish(at: fixes.last?.time ?? 0)
    }
}
