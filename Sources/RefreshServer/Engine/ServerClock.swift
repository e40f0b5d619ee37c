import Dispatch
import Foundation

/// Where one server reads the time. Two readings, because they answer different questions:
/// - `now`, the calendar: what the server writes down or compares with a date from outside — audit entries, admin
///   keys' creation and revocation, import jobs, an access token's expiry, a refresh's `server_time` and the hour its
///   opening hours are read at, the index's age;
/// - `uptime`, a monotonic count that never jumps when the calendar is set: rate limits, backoff, deadlines and
///   durations.
///
/// It also waits: `sleep(for:)` is measured on `uptime`, so every wait of the server's own processes — a reload's
/// backoff, a poll's interval, a key re-read, the audit writer's pause, a waiter's time limit — passes when the clock
/// says so.
///
/// A server is given its clock (`ServerBuilder.build(clock:)`), as it is given its threads: a test moves time forward
/// instead of waiting for it (`ManualClock` in the tests), and no reading of the process's clocks, and no sleep, hides
/// inside a route or a service. Only NIO's own event-loop timers (the connection deadlines) run on the loop's clock.
package struct ServerClock: Sendable {
    package let now: @Sendable () -> Date
    package let uptime: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    package init(
        now: @escaping @Sendable () -> Date, uptime: @escaping @Sendable () -> Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.now = now
        self.uptime = uptime
        self.sleeper = sleep
    }

    /// The machine's calendar, its monotonic clock, and the task's sleep.
    package static var system: ServerClock {
        ServerClock(
            now: { Date() }, uptime: { .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds)) },
            sleep: { try await Task.sleep(for: $0) })
    }

    /// Waits `duration` of this clock's `uptime`; throws `CancellationError` when the task is cancelled first.
    package func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }

    /// `uptime` in nanoseconds, the unit of `TokenBucketLimiter`.
    var uptimeNanoseconds: UInt64 {
        let (seconds, attoseconds) = uptime().components
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }

    /// Seconds from `start` (an `uptime` reading) to now.
    func seconds(since start: Duration) -> Double { (uptime() - start).inSeconds }
}
