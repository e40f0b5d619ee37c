import Foundation

/// HTTP `Retry-After`: either delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// Seconds to wait from `now`; nil when the header is absent or unreadable (the caller then backs off on its own).
    static func seconds(_ header: String?, now: Date = Date()) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Int(text) { return seconds >= 0 ? Double(seconds) : nil }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
