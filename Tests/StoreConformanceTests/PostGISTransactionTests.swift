import Geo
import LocationStore
import PostgresNIO
import Testing

@testable import PostGISStore

/// What PostgreSQL says about a transaction decides what the PostGIS store reports and whether its connection serves
/// again: a transaction it rolled back never passes for committed, and one still open keeps its connection out of
/// the server's pool.
@Suite(
    "PostGIS transactions, as PostgreSQL ends them",
    .enabled(if: TestStore.postgisAvailable || TestStore.kinds.contains(.postgis)))
struct PostGISTransactionTests {
    static let store = Location(
        networkId: "a", externalId: "1", name: "One", coordinate: Coordinate(uncheckedLatitude: 48.85, longitude: 2.35))

    /// A statement that failed inside a transaction aborts it, and PostgreSQL answers the COMMIT that follows with
    /// ROLLBACK, not an error: a body that caught the failure and went on would otherwise report its writes as saved.
    @Test func aTransactionPostgreSQLRolledBackIsAnError() async throws {
        try await TestStore.with(.postgis) { any, _ in
            let store = try #require(any as? PostGISLocationStore)
            try await store.upsertNetwork(Network(id: "a", name: "A"))
            let before = try await store.storeVersion()
            await #expect {
                try await store.transaction {
                    _ = try await store.upsert([Self.store])
                    await #expect(throws: StoreError.self) { try await store.query("SELECT 1 / 0") }
                }
            } throws: { error in
                guard case StoreError.postgres(let state, _)? = error as? StoreError else { return false }
                return state == "25P02"
            }
            #expect(try await store.locations(networkId: "a").isEmpty, "nothing of the rolled-back transaction stays")
            #expect(try await store.storeVersion() == before)
            #expect(store.suspend(), "the transaction is over: the connection can serve again")
            #expect(await store.resume())
        }
    }

    /// A failed statement inside a savepoint aborts the transaction, and PostgreSQL then refuses the savepoint's
    /// RELEASE. The savepoint is rolled back instead, so that each scope around it rolls back only its own writes and
    /// the outermost one, which caught the failure, commits its own, with one change version.
    @Test func aFailureCaughtTwoScopesUpRollsBackOnlyWhatItsScopesWrote() async throws {
        try await TestStore.with(.postgis) { any, _ in
            let store = try #require(any as? PostGISLocationStore)
            try await store.upsertNetwork(Network(id: "a", name: "A"))
            let before = try await store.storeVersion()
            func location(_ id: String) -> Location {
                Location(networkId: "a", externalId: id, name: id, coordinate: Coordinate(uncheckedLatitude: 48.85, longitude: 2.35))
            }
            try await store.transaction {
                _ = try await store.upsert([location("outer")])
                _ = try? await store.transaction {
                    _ = try await store.upsert([location("middle")])
                    try await store.transaction {
                        _ = try await store.upsert([location("inner")])
                        _ = try? await store.query("SELECT 1 / 0")
                    }
                }
            }
            #expect(Set(try await store.locations(networkId: "a").map(\.externalId)) == ["outer"])
            #expect(try await store.storeVersion() == before + 1)
            #expect(await store.resume(), "the transaction ended: the connection reads again")
        }
    }

    @Test func aConnectionServesAgainOnlyOutsideItsTransaction() async throws {
        try await TestStore.with(.postgis) { any, _ in
            let store = try #require(any as? PostGISLocationStore)
            let inside = try await store.transaction {
                try await store.transaction { store.suspend() }
            }
            #expect(!inside)
            #expect(store.suspend())
        }
    }
}
