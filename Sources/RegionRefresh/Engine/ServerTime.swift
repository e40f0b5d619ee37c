import Foundation
import Synchronization

/// UTC timestamps as the API writes them: `2025-11-22T10:30:00Z` (whole seconds).
public enum ServerTime {
    /// The last second formatted: a busy server answers thousands of requests within one.
    private static let last = Mutex<(seconds: Int64, text: String)>((.min, ""))

    public static func string(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        if let hit = last.withLock({ $0.seconds == seconds ? $0.text : nil }) { return hit }
        let text = format(seconds)
        last.withLock { $0 = (seconds, text) }
        return text
    }

    static func format(_ seconds: Int64) -> String {
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
