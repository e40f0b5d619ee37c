/// Waits until `condition` holds, checking every 20 ms, for at most `limit` of wall-clock time; true if it held.
///
/// Tests wait for other processes and for the server's background work this way rather than for a number of tries or
/// a fixed sleep: with the whole suite on CI's two cores, what takes milliseconds alone can take seconds there, and the
/// limit only bounds how long a test that is going to fail takes to say so.
public func eventually(within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: .milliseconds(20))
    }
}
