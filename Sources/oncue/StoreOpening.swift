import LocationStore

/// Opens the store named by `--db`, turning every failure into a one-line error.
func openStore(_ path: String, readOnly: Bool = false) throws -> SQLiteLocationStore {
    try SQLiteLocationStore(path: path, readOnly: readOnly)
}
