import Foundation
import LocationStore

/// Refused admin requests counted rather than stored one row each: the lowest role could otherwise grow the log
/// without bound (a read key sending 60 refused writes a second is 5 million rows a day).
///
/// Refusals (a result of 400 or more) with the same key, action and result form a window of `window`: its first is
/// stored in full, the rest are counted, and when the window has passed one more entry says how many there were, from
/// when to when, and the last target. Whatever a key sends, it adds at most two rows a minute for each route and
/// status it meets. Successful writes are never sampled.
struct AuditSampler {
    static let window: Duration = .seconds(60)

    private struct Key: Hashable {
        var keyId: String
        var action: String
        var result: String
    }

    private struct Window {
        var opened: Duration
        var first: Date
        var last: Date
        var lastTarget: String
        /// Refusals after the first, not stored.
        var more = 0
    }

    private var windows: [Key: Window] = [:]

    static func isRefusal(_ entry: AuditEntry) -> Bool { (Int(entry.result) ?? 0) >= 400 }

    /// What to store of `entry`, recorded at `uptime`: itself, unless it repeats a refusal within its window; and the
    /// summary of its key's window when that has passed.
    mutating func admit(_ entry: AuditEntry, at uptime: Duration) -> [AuditEntry] {
        guard Self.isRefusal(entry) else { return [entry] }
        let key = Key(keyId: entry.keyId, action: entry.action, result: entry.result)
        if var open = windows[key], uptime - open.opened < Self.window {
            open.more += 1
            open.last = entry.at
            open.lastTarget = entry.target
            windows[key] = open
            return []
        }
        let ended = windows[key].flatMap { Self.summary(key, $0) }
        windows[key] = Window(opened: uptime, first: entry.at, last: entry.at, lastTarget: entry.target)
        return (ended.map { [$0] } ?? []) + [entry]
    }

    /// The summaries of windows that have passed by `uptime` (or of every window, at shutdown).
    mutating func closeExpired(at uptime: Duration, all: Bool = false) -> [AuditEntry] {
        var summaries: [AuditEntry] = []
        for (key, open) in windows where all || uptime - open.opened >= Self.window {
            windows[key] = nil
            if let summary = Self.summary(key, open) { summaries.append(summary) }
        }
        return summaries.sorted { $0.at < $1.at }
    }

    private static func summary(_ key: Key, _ window: Window) -> AuditEntry? {
        guard window.more > 0 else { return nil }
        return AuditEntry(
            at: window.last, keyId: key.keyId, action: key.action, target: window.lastTarget, result: key.result,
            detail:
                "\(window.more) more like it from \(window.first.formatted(.iso8601)) to \(window.last.formatted(.iso8601)), counted, not stored one by one; the last target shown"
        )
    }
}
