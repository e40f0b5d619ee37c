import LocationStore

extension SQLiteLocationStore: ReusableStore {
    public func prepareForReuse() -> Bool {
        db.resetAllStatements()
        guard bulk == nil, !db.isInTransaction else { return false }
        neighbourSearches = (0, 0)
        return true
    }
}
