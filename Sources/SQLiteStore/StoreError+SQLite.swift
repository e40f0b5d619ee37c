import CSQLite
import LocationStore

extension StoreError {
    /// A SQLite result as a store error: the results a caller acts on get their own case, so that no caller above the
    /// SQLite store reads SQLite's numbers.
    static func sqlite(_ code: Int32, _ message: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_READONLY: .readOnly(message)
        case SQLITE_BUSY, SQLITE_LOCKED: .busy(message)
        default: .sqlite(code: code, message: message)
        }
    }
}
