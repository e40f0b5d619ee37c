import CSQLite
import LocationStore

extension SQLiteLocationStore: ReusableStore {
    public func suspend() -> Bool {
        db.resetAllStatements()
        guard bulk == nil, !db.isInTransaction else { return false }
        neighbourSearches = (0, 0)
        do throws(StoreError) {
            // What a use may have changed goes back to how `configure` left it, as on a connection just opened: a
            // small import's smaller page cache, and an open temporary database (changing temp_store closes it).
            if temporaryDatabaseOpened {
                try db.execute("PRAGMA temp_store = FILE")
                try db.execute("PRAGMA temp_store = MEMORY")
                temporaryDatabaseOpened = false
            }
            try db.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
            // A waiting connection keeps neither its map of the file nor its page cache: the server's resident memory
            // is its index's, as when every use closed its connection.
            try db.execute("PRAGMA mmap_size = 0")
        } catch {
            return false
        }
        sqlite3_db_release_memory(db.handle)
        return true
    }

    public func resume() -> Bool {
        (try? db.execute("PRAGMA mmap_size = \(Self.mmapBytes)")) != nil
    }
}
