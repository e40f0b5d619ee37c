import ArgumentParser
import Foundation
import LocationStore

/// The help text of every `--db`.
let storeHelp = ArgumentHelp("The store: a SQLite file or a postgres:// URL (default: $ONCUE_DB).", valueName: "file-or-url")

/// The store a command names, else `ONCUE_DB`; a bad URL is a usage error that never repeats its password.
func storeAddress(_ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> StoreAddress {
    let text = given ?? environment["ONCUE_DB"] ?? ""
    guard !text.isEmpty else { throw ValidationError("no store: pass --db FILE or --db postgres://… (or set ONCUE_DB)") }
    do { return try StoreAddress(text) } catch { throw ValidationError(error.description) }
}

/// Opens the named store for `body` and closes it afterwards, whatever happens.
@discardableResult
func withStore<T>(_ given: String?, readOnly: Bool = false, _ body: (any LocationStore) async throws -> T) async throws -> T {
    let store = try await storeAddress(given).open(readOnly: readOnly)
    do {
        let value = try await body(store)
        await store.close()
        return value
    } catch {
        await store.close()
        throw error
    }
}
