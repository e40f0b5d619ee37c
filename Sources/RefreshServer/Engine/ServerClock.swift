import Dispatch
import Foundation

/// Where one server reads the time. Two readings, because they answer different questions:
/// - `now`, the calendar: what the server writes down or compares with a date from outside — audit entries, admin
///   keys' creation and revocation, import jobs, an access token's expiry, a refresh's `server_time` and the hour its
///   opening hours are read at, the index's age;
/// - `uptime`, a monotonic count that never jumps when the calendar is set: rate limits, backoff, deadlines and
///   durations.
///
/// A server is given its clock (`ServerBuilder.build(clock:)`), as it is given its threads: a test moves time forward
/// instead of waiting for it, and no reading of the process's clocks hides inside a route.
package struct ServerClock: Sendable {
    package let now: @Sendable () -> Date
    package let uptime: @Sendable () -> Duration

    package init(now: @escaping @Sendable () -> Date, uptime: @escaping @Sendable () -> Duration) {
        self.now = now
        self.uptime = uptime
    }

    /// The machine's calendar and its monotonic clock.
    package static var system: ServerClock {
        ServerClock(now: { Date() }, uptime: { .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds)) })
    }

    /// `uptime` in nanoseconds, the unit of `TokenBucketLimiter`.
    var uptimeNanoseconds: UInt64 {
        let (seconds, attoseconds) = uptime().components
        return UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
    }

    /// Seconds from `start` (an `uptime` reading) to now.
    func seconds(since start: Duration) -> Double { (uptime() - start).inSeconds }
}
