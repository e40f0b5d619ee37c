/// The batches of rows on their way to the server while the importer reads, checks and stages the next ones.
///
/// Each batch is encoded in a task of its own (no connection needed) while the batch before it is being stored, then
/// waits for that batch and is sent: batches reach the connection in file order, one at a time. At most `depth` are
/// in flight, so memory stays bounded; a batch's error fails the batches after it and surfaces at the next `send` or
/// `settle`. Whoever uses the store's connection directly settles first.
struct BatchInFlight {
    private var tasks: [Task<Void, any Error>] = []
    private let depth = 2

    /// Starts a batch: `encode` at once, `write` after the batch before has been written.
    mutating func send<Encoded: Sendable>(
        encode: @escaping @Sendable () -> Encoded,
        write: @escaping @Sendable (Encoded) async throws -> Void
    ) async throws {
        if tasks.count >= depth { try await tasks.removeFirst().value }
        let previous = tasks.last
        // On the global pool even when the import runs on a dedicated executor (the server's), so the two overlap.
        tasks.append(
            Task(executorPreference: globalConcurrentExecutor) {
                let encoded = encode()
                try await previous?.value
                try await write(encoded)
            })
    }

    /// No batch in flight: the store's connection is free for the importer's own statements.
    var isIdle: Bool { tasks.isEmpty }

    /// Waits for every batch in flight; the first error is the import's.
    mutating func settle() async throws {
        while !tasks.isEmpty { try await tasks.removeFirst().value }
    }

    /// After a failure elsewhere: waits until no batch uses the connection any more (their errors are dropped), so
    /// that the transaction's rollback is sent after them and nothing of theirs can land outside the transaction.
    mutating func abandon() async {
        while !tasks.isEmpty { _ = try? await tasks.removeFirst().value }
    }
}
