import Geo
import OnCueContract
import RegionRefresh

/// Something that happens at a virtual time: an OS callback or the end of a refresh call.
enum PendingEvent {
    case enter(regionKey: String)
    case exit(regionKey: String)
    /// Android's DWELL transition: inside for the loitering delay.
    case dwell(regionKey: String)
    /// The answer to a state request: inside, outside, or unknown (nil) when the position is within the cushion.
    case state(regionKey: String, inside: Bool?)
    /// A wake the app scheduled (a card's confirmation delay) falls due.
    case wakeDue(Int)
    case refreshSucceeded(RegionRefreshResponse)
    case refreshFailed(reason: String)
}

/// Events ordered by time, then by insertion (so equal times replay in a fixed order: determinism).
struct EventQueue {
    private var items: [(time: Double, seq: Int, event: PendingEvent)] = []
    private var seq = 0

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ time: Double, _ event: PendingEvent) {
        seq += 1
        // Few events are pending at once (a handful of delayed callbacks), so insertion sort beats a heap.
        var i = items.count
        while i > 0 && items[i - 1].time > time { i -= 1 }
        items.insert((time, seq, event), at: i)
    }

    /// The earliest event at or before `time`, removed.
    mutating func popDue(upTo time: Double) -> (time: Double, event: PendingEvent)? {
        guard let first = items.first, first.time <= time else { return nil }
        items.removeFirst()
        return (first.time, first.event)
    }
}
