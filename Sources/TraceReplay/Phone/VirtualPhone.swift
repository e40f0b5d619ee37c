import Foundation
import Geo
import OnCueClient
import OnCueContract

/// The phone the replay runs: the client library's state machine (`ClientStateMachine`, the code an app links) on
/// the virtual OS. The phone delivers the OS's reports to the machine and carries out its actions — regions on the
/// virtual location manager, refresh calls through the scenario's network, cards and GPS time into the recorder —
/// and makes no decision of the app's own.
final class VirtualPhone {
    var machine: ClientStateMachine
    let manager: VirtualLocationManager
    let recorder: Recorder
    let refresher: (any RegionRefreshing)?
    let network: NetworkModel
    /// `+motion`: what the phone's motion sensor says, this late.
    let motion: MotionTimeline?
    let motionLatencySeconds: Double
    let traceStart: Double
    var rng: SeededRandom
    var gpsCountedFrom: Double?
    private var reportedWalking = false
    /// Refresh calls wait until the callbacks already due are delivered (the app's call is asynchronous), and with
    /// them the note of the refresh-region exit that asked for one.
    var deferred: [ClientAction] = []

    init(
        machine: ClientStateMachine, manager: VirtualLocationManager, recorder: Recorder, refresher: (any RegionRefreshing)?,
        network: NetworkModel, seed: UInt64, traceStart: Double, motion: MotionTimeline?, motionLatencySeconds: Double
    ) {
        self.machine = machine
        self.manager = manager
        self.recorder = recorder
        self.refresher = refresher
        self.network = network
        self.motion = motion
        self.motionLatencySeconds = motionLatencySeconds
        self.traceStart = traceStart
        rng = SeededRandom(seed: seed)
    }

    var hasDeferredWork: Bool { !deferred.isEmpty }

    // MARK: what the OS reports

    /// The OS woke the app with a fix (launch, significant change, visit, periodic, or every fix in the foreground).
    func wake(_ fix: PhoneFix, reason: VirtualLocationManager.Wake, queue: inout EventQueue) async {
        if reason != .everyFix {
            recorder.woke(at: fix.time, backgroundSeconds: manager.os.backgroundSeconds)
            recorder.event(ReplayEvent(time: fix.time, kind: .wake, detail: reason.rawValue))
        }
        deliver(.woke(reason.clientReason, fix: fix.locationFix), at: fix.time, queue: &queue)
        await runDeferredWork(queue: &queue)
    }

    /// An OS callback or a refresh answer falls due.
    func handle(_ event: PendingEvent, at time: Double, queue: inout EventQueue) {
        switch event {
        case .refreshSucceeded(let response):
            deliver(.refreshSucceeded(response), at: time, queue: &queue)
        case .refreshFailed(let reason):
            recorder.refreshFailures += 1
            recorder.event(ReplayEvent(time: time, kind: .refreshFailed, detail: reason))
            deliver(.refreshFailed(retryAfterSeconds: nil), at: time, queue: &queue)
        case .enter(let key):
            guard let w = machine.watch(key) else { return }
            callback(.enter, w, time)
            deliver(.regionEntered(key), at: time, queue: &queue)
        case .dwell(let key):
            guard let w = machine.watch(key) else { return }
            callback(.dwell, w, time)
            deliver(.regionDwelled(key), at: time, queue: &queue)
        case .state(let key, let inside):
            guard let w = machine.watch(key), w.role != .refresh, inside != false else { return }
            callback(inside == true ? .stateInside : .stateUnknown, w, time)
            deliver(.regionState(key, inside: inside), at: time, queue: &queue)
        case .exit(let key):
            guard let w = machine.watch(key) else { return }
            callback(.exit, w, time)
            deliver(.regionExited(key, lastKnown: manager.lastFix?.locationFix), at: time, queue: &queue)
        case .wakeDue(let id):
            deliver(.wakeDue(id), at: time, queue: &queue)
        }
    }

    /// Every trace fix: while the app follows a store, its location update (the OS's low-power position, and the
    /// recorded position as its GPS fix).
    func locationUpdate(_ fix: PhoneFix, queue: inout EventQueue) {
        guard machine.wantsLocationUpdates else { return }
        let update = LocationUpdate(
            coarse: fix.unit, precise: PreciseFix(position: fix.appUnit, accuracy: fix.traceAccuracy), stream: fix.segment)
        deliver(.location(update), at: fix.time, queue: &queue)
    }

    /// The trace ended: the intervals still open close (no region is stopped; the recording ended, not the app).
    func finish(at time: Double) {
        var queue = EventQueue()
        carryOut(machine.handle(.stopped, at: time), at: time, queue: &queue, traceEnded: true)
        recorder.finish(at: time)
    }

    /// The refresh calls (and refresh-region exits) the callbacks just delivered asked for.
    func runDeferredWork(queue: inout EventQueue) async {
        while !deferred.isEmpty {
            let action = deferred.removeFirst()
            switch action {
            case .refresh(let call): await perform(call, queue: &queue)
            case .note(.leftRefreshRegion(let fixTime)):
                recorder.event(ReplayEvent(time: fixTime, kind: .wake, detail: "refresh_region_exit"))
            default: break
            }
        }
    }

    private func deliver(_ event: ClientEvent, at time: Double, queue: inout EventQueue) {
        if event.mayJudgeMotion { reportMotion(at: time, queue: &queue) }
        carryOut(machine.handle(event, at: time), at: time, queue: &queue)
    }

    /// `+motion`: the sensor's word at `time`, reported to the machine when it changed, before the events that may
    /// start or continue a follow (a region's report, a location update; a staged fix comes at its region's time).
    /// What the machine does on it is carried out (with two tiers, a quiet card that waited for the person to stand).
    private func reportMotion(at time: Double, queue: inout EventQueue) {
        guard let motion else { return }
        let walking = motion.isWalking(at: time, latency: motionLatencySeconds)
        guard walking != reportedWalking else { return }
        reportedWalking = walking
        carryOut(machine.handle(.motion(walking: walking), at: time), at: time, queue: &queue)
    }

    private func callback(_ kind: ReplayEvent.Kind, _ w: RegionWatch, _ time: Double) {
        recorder.woke(at: time, backgroundSeconds: manager.os.backgroundSeconds)
        if kind != .stateUnknown && w.role != .refresh { recorder.reported(w.region, inside: kind != .exit, at: time) }
        recorder.event(
            ReplayEvent(
                time: time, kind: kind, location: w.region.id, network: w.region.networkId,
                card: machine.wallet.card(for: w.region.networkId)?.name ?? "", distance: recorder.trueDistance(to: w.region),
                detail: w.role.rawValue))
    }
}

extension ClientEvent {
    /// Whether the machine may read the motion sensor's word while it handles this event.
    var mayJudgeMotion: Bool {
        switch self {
        case .regionEntered, .regionDwelled, .regionState, .location: true
        default: false
        }
    }
}

extension VirtualLocationManager.Wake {
    var clientReason: ClientEvent.WakeReason {
        switch self {
        case .launch: .launch
        case .significantChange: .significantChange
        case .visit: .visit
        case .periodic: .periodic
        case .everyFix: .foreground
        }
    }
}

extension PhoneFix {
    /// The fix as the OS reports it to the app.
    var locationFix: LocationFix { LocationFix(time: time, latitude: latitude, longitude: longitude, accuracy: accuracy, unit: unit) }
}
