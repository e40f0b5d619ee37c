/// How a refresh client asks again after a retryable failure: up to `attempts` calls in all, waiting the server's
/// `Retry-After` when it gave one (up to `maxDelaySeconds`), else a backoff that doubles from `baseDelaySeconds`.
public struct RetryPolicy: Sendable, Equatable, Codable {
    /// Calls in all, the first included; 1 never retries.
    public var attempts: Int
    public var baseDelaySeconds: Double
    /// The longest wait between calls: a `Retry-After` asking for more ends the tries (the app schedules it instead).
    public var maxDelaySeconds: Double

    public init(attempts: Int = 3, baseDelaySeconds: Double = 1, maxDelaySeconds: Double = 30) {
        self.attempts = max(1, attempts)
        self.baseDelaySeconds = max(0, baseDelaySeconds)
        self.maxDelaySeconds = max(0, maxDelaySeconds)
    }

    /// One call, no retry: for callers that retry on their own clock (the replay's virtual phone).
    public static let never = RetryPolicy(attempts: 1)

    /// The wait before call `attempt + 1` after `error` (calls count from 1); nil: stop trying.
    public func delay(after error: RefreshClientError, attempt: Int) -> Double? {
        guard error.isRetryable, attempt < attempts else { return nil }
        if let asked = error.retryAfterSeconds { return asked <= maxDelaySeconds ? asked : nil }
        var wait = baseDelaySeconds
        for _ in 1..<attempt { wait *= 2 }
        return min(wait, maxDelaySeconds)
    }
}
