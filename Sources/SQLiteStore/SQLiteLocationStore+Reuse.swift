import CSQLite
import LocationStore

extension SQLiteLocationStore: ReusableStore {
    public func suspend() -> Bool {
        db.resetAllStatements()
        guard bulk == nil, !db.isInTransaction else { return false }
        neighbourSearches = (0, 0)
        // A waiting connection keeps neither its map of the file nor its page cache: the server's resident memory is
        // its index's, as when every use closed its connection.
        guard (try? db.execute("PRAGMA mmap_size = 0")) != nil else { return false }
        sqlite3_db_release_memory(db.handle)
        return true
    }

    public func resume() -> Bool {
        (try? db.execute("PRAGMA mmap_size = \(Self.mmapBytes)")) != nil
    }
}
