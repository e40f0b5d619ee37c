import Foundation
import HTTPTypes
import LocationStore
import SQLiteStore
import TestSupport
import Testing

@testable import RefreshServer

/// The server's waits run on its clock: with a manual one, a key written behind the server's back is taken when the
/// test moves the clock past the re-read's interval, and not before, however long the test really waits.
@Suite("Waits on the server's clock")
struct ServerClockWaitTests {
    @Test("a key added behind the server's back is read when the clock passes the re-read interval, not before")
    func keyReReadsFollowTheClock() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let clock = ManualClock(at: ServerClockTests.future, waits: .manual)
        let noBootstrapToken: (inout ServerConfiguration) -> Void = { $0.adminToken = nil }
        try await withServer(store: store, clock: clock.server, configure: noBootstrapToken) { client, _ in
            let (key, token) = AdminKeySecret.mint(name: "first", role: .import, at: clock.date)
            try SQLiteLocationStore(path: store.path).insertAdminKey(key)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            // Real time passes, the clock does not: the last read (at start) is too recent to read again.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await client.send(.get, "/admin/imports", headers: bearer).status != 200)
            clock.advance(by: .seconds(1))
            #expect(try await client.send(.get, "/admin/imports", headers: bearer).status == 200)
        }
    }
}
