import LocationStore

/// What `begin` opened, for `commit` or `rollback` to close: the transaction, or a savepoint inside one. Whether a
/// transaction is open is SQLite's to say (`isInTransaction`), and the savepoints nest in SQLite as the calls that
/// open them do — savepoints of one name stack, and `RELEASE` and `ROLLBACK TO` take the innermost — so the connection
/// keeps no count of its own that could drift from the database's.
enum TransactionScope: Equatable {
    case transaction, savepoint
}

/// The store's one transaction primitive: a transaction, or a savepoint inside one, around a body whose writes commit
/// together or not at all. `SQLiteLocationStore.transaction` (async) and every synchronous write go through it.
extension SQLiteConnection {
    private static let savepoint = "oncue_scope"

    /// Opens a transaction (`BEGIN IMMEDIATE`, so the write lock is taken now rather than at the first write, when
    /// another writer could already hold it), or a savepoint when one is open.
    func begin() throws(StoreError) -> TransactionScope {
        if isInTransaction {
            try execute("SAVEPOINT \(Self.savepoint)")
            return .savepoint
        }
        try execute("BEGIN IMMEDIATE")
        changeVersionNoted = nil
        return .transaction
    }

    func commit(_ scope: TransactionScope) throws(StoreError) {
        switch scope {
        case .transaction:
            changeVersionNoted = nil
            try execute("COMMIT")
        case .savepoint:
            try execute("RELEASE \(Self.savepoint)")
        }
    }

    /// Undoes everything since `begin` opened `scope`; errors are not reported (the body's error is the one to tell).
    func rollback(_ scope: TransactionScope) {
        switch scope {
        case .transaction:
            changeVersionNoted = nil
            try? execute("ROLLBACK")
        case .savepoint:
            try? execute("ROLLBACK TO \(Self.savepoint)")
            try? execute("RELEASE \(Self.savepoint)")
            // A version bump made inside the savepoint went with it; one made before it stands. The version row says
            // which (and so does it when SQLite itself ended the whole transaction on the error).
            if let noted = changeVersionNoted, currentChangeVersion() != noted { changeVersionNoted = nil }
        }
    }

    /// The store's change version as this connection sees it now; nil when it cannot be read.
    private func currentChangeVersion() -> Int64? {
        do throws(StoreError) {
            return try scalarInt("SELECT version FROM oncue_changes")
        } catch {
            return nil
        }
    }

    /// Runs `body` in a transaction (or a savepoint inside one).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        let scope = try begin()
        do {
            let value = try body()
            try commit(scope)
            return value
        } catch {
            rollback(scope)
            throw error
        }
    }
}

extension SQLiteConnection {
    /// Bumps the store's change version, once per transaction, before the transaction's first change to what the
    /// engine serves: rows written afterwards store the new version (`SQLiteSchema.currentChangeVersion`), and
    /// tombstones get it from their trigger.
    func noteChange() throws(StoreError) {
        guard changeVersionNoted == nil else { return }
        try execute("UPDATE oncue_changes SET version = version + 1")
        let version = Int64(try scalarInt("SELECT version FROM oncue_changes") ?? 0)
        if isInTransaction { changeVersionNoted = version }
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
