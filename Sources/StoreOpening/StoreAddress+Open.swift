import LocationStore
import Logging
import PostGISStore
import SQLiteStore

/// The one place that names the store types: an address opens the store kept there. Everything above this module
/// works with `any LocationStore` and asks it for what it can do (`ChangeAnnouncing`, `GeocodeCache`, …).
extension StoreAddress {
    /// Opens the store there (refusing what is not an OnCue store, or is newer than this build). Opened for writing,
    /// brand networks still under an id in another script move to their ASCII id first (`rekeyBrandNetworks`).
    package func open(readOnly: Bool = false, logger: Logger = Logger(label: "oncue.store")) async throws -> any LocationStore {
        let store: any LocationStore =
            switch self {
            case .file(let path): try SQLiteLocationStore(path: path, readOnly: readOnly)
            case .postgres(let url): try await PostGISLocationStore.open(url, readOnly: readOnly, logger: logger)
            }
        guard !readOnly else { return store }
        do {
            for merge in try await store.rekeyBrandNetworks() {
                logger.notice(
                    "brand network re-keyed to its ASCII id",
                    metadata: ["from": "\(merge.from)", "into": "\(merge.into)", "locations": "\(merge.moved)"])
            }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Creates an empty store there: a new file, or the schema in an empty PostgreSQL database.
    package func create(logger: Logger = Logger(label: "oncue.store")) async throws -> any LocationStore {
        switch self {
        case .file(let path): try SQLiteLocationStore.create(path: path)
        case .postgres(let url): try await PostGISLocationStore.create(url, logger: logger)
        }
    }
}
