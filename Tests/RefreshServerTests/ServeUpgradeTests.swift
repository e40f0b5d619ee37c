import Foundation
import StoreOpening
import TestSupport
import Testing

@testable import LocationStore
@testable import SQLiteStore

/// `oncue serve` on a store of an earlier schema brings it up to date, as any writing command does, instead of
/// refusing with "needs a schema upgrade" (it opened the store read-only to check it).
@Suite("serve upgrades an older store", .serialized, .blocking)
struct ServeUpgradeTests {
    @Test func serveMigratesAnOlderStore() async throws {
        let store = try TestStore()
        defer { store.remove() }
        try SQLiteLocationStore(path: store.path).db.execute("PRAGMA user_version = 2")
        let server = try await ServeProcess(store: store.path)
        #expect(RawConnection.get(port: server.port, "/readyz")?.hasPrefix("HTTP/1.1 200") == true)
        let reopened = try await StoreAddress.file(store.path).open(readOnly: true)
        #expect(try await reopened.stats().schemaVersion == SQLiteSchema.currentVersion)
        await reopened.close()
    }
}
