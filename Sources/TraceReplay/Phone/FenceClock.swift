import Geo

/// When the OS looks at its fences. It does not evaluate them at every position a GPS log holds: it takes a position
/// of its own every so often, more rarely while the phone is still, and sooner when a decision is pending.
struct FenceClock {
    let moving: Double
    let stationary: Double
    let minimumSpeed: Double
    /// Speed is the true displacement over this window: long enough that GPS noise on a still phone does not look
    /// like walking, short enough to notice a walk starting within a minute (the motion sensors would).
    static let speedWindowSeconds = 60.0
    private(set) var lastCheckedFix: PhoneFix?
    private var next = -Double.infinity
    private var recent: [(time: Double, unit: UnitVector)] = []
    private var oldest = 0

    init(os: OSModel) {
        moving = max(os.fenceCheckMovingSeconds, os.responsivenessSeconds)
        stationary = max(os.fenceCheckStationarySeconds, os.responsivenessSeconds)
        minimumSpeed = os.movingSpeedMetersPerSecond
    }

    var everyFix: Bool { moving == 0 && stationary == 0 }

    /// Keeps the last minute of true positions (for the speed).
    mutating func observe(_ fix: PhoneFix) {
        guard !everyFix else { return }
        recent.append((fix.time, fix.trueUnit))
        while oldest + 1 < recent.count && recent[oldest + 1].time <= fix.time - Self.speedWindowSeconds { oldest += 1 }
        if oldest > 256 {
            recent.removeFirst(oldest)
            oldest = 0
        }
    }

    func isDue(_ time: Double) -> Bool { everyFix || time >= next }

    /// Schedules the next check after one at `fix`: the interval by how fast the phone moved over the last minute,
    /// or earlier if a pending decision needs it.
    mutating func checked(_ fix: PhoneFix, wakeUpBy deadline: Double?) {
        lastCheckedFix = fix
        guard !everyFix else { return }
        var isMoving = true
        if oldest < recent.count, fix.time - recent[oldest].time > 0 {
            let from = recent[oldest]
            isMoving = fix.trueUnit.meters(to: from.unit) / (fix.time - from.time) >= minimumSpeed
        }
        var at = fix.time + (isMoving ? moving : stationary)
        if let deadline { at = min(at, max(deadline, fix.time + 1e-6)) }
        next = at
    }
}
