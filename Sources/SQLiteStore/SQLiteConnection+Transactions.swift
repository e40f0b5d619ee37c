import LocationStore

/// The store's one transaction primitive: a transaction, or a savepoint inside one, around a body whose writes commit
/// together or not at all. `SQLiteLocationStore.transaction` (async) and every synchronous write go through it.
extension SQLiteConnection {
    /// Opens a transaction (`BEGIN IMMEDIATE`, so the write lock is taken now rather than at the first write, when
    /// another writer could already hold it), or a savepoint when one is open; returns the depth to close.
    func begin() throws(StoreError) -> Int {
        let depth = transactionDepth
        try execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT sp\(depth)")
        if depth == 0 { changeNotedAt = nil }
        transactionDepth += 1
        return depth
    }

    func commit(_ depth: Int) throws(StoreError) {
        transactionDepth = depth
        if depth == 0 { changeNotedAt = nil }
        try execute(depth == 0 ? "COMMIT" : "RELEASE sp\(depth)")
    }

    /// Undoes everything since `begin` returned `depth`; errors are not reported (the body's error is the one to tell).
    func rollback(_ depth: Int) {
        transactionDepth = depth
        // The bump is undone with the savepoint it was made in.
        if let noted = changeNotedAt, noted > depth { changeNotedAt = nil }
        if depth == 0 {
            try? execute("ROLLBACK")
        } else {
            try? execute("ROLLBACK TO sp\(depth)")
            try? execute("RELEASE sp\(depth)")
        }
    }

    /// Runs `body` in a transaction (or a savepoint inside one).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = try begin()
        do {
            let value = try body()
            try commit(depth)
            return value
        } catch {
            rollback(depth)
            throw error
        }
    }
}

extension SQLiteConnection {
    /// Bumps the store's change version, once per transaction, before the transaction's first change to what the
    /// engine serves: rows written afterwards store the new version (`SQLiteSchema.currentChangeVersion`), and
    /// tombstones get it from their trigger.
    func noteChange() throws(StoreError) {
        guard changeNotedAt == nil else { return }
        try execute("UPDATE oncue_changes SET version = version + 1")
        if transactionDepth > 0 { changeNotedAt = transactionDepth }
        let version = Int64(try scalarInt("SELECT version FROM oncue_changes") ?? 0)
        if version % ChangeHistory.pruneEvery == 0 { try pruneChangeHistory(keeping: ChangeHistory.keptVersions, at: version) }
    }

    /// Forgets the tombstones of deletions more than `keeping` versions old, and says so in `tracked_from`: a reader
    /// that old builds its index afresh (it was down or far behind), and the table does not grow with every deletion
    /// ever made.
    func pruneChangeHistory(keeping: Int64, at version: Int64) throws(StoreError) {
        let horizon = version - keeping
        guard horizon > 0 else { return }
        try execute(
            """
            DELETE FROM location_tombstones WHERE change_version <= \(horizon);
            UPDATE oncue_changes SET tracked_from = max(tracked_from, \(horizon));
            """)
    }
}
