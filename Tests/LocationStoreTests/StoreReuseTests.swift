import Foundation
import Geo
import LocationStore
import SQLiteStore
import Testing

/// A connection kept open between uses (the server's `StorePool`) must not read an old snapshot: a read stepped to
/// its first row and left there keeps SQLite's read transaction open, and every later read on the connection sees
/// the store as it was then. `suspend` ends it.
@Suite struct StoreReuseTests {
    func location(_ ext: String) -> Location {
        Location(networkId: "n", externalId: ext, name: "Store \(ext)", coordinate: Coordinate(uncheckedLatitude: 10, longitude: 20))
    }

    @Test func aReusedReaderSeesWritesCommittedSinceItsLastUse() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let writer = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try writer.upsertNetwork(Network(id: "n", name: "N"))
        _ = try writer.upsert([location("1"), location("2")])
        let reader = try SQLiteLocationStore(path: dir.path("s.sqlite"), readOnly: true)

        // One use: a single-row read, whose statement stays on its row.
        #expect(try reader.location(id: "loc_n_1") != nil)
        _ = try writer.upsert([location("3")])
        // Without a reset the next read would still see two locations (the first read's snapshot).
        #expect(try reader.locationIds(networkId: "n").count == 2, "the precondition: a read left on its row pins the snapshot")

        #expect(reader.suspend() && reader.resume())
        #expect(try reader.locationIds(networkId: "n") == ["loc_n_1", "loc_n_2", "loc_n_3"])
    }

    @Test func aStoreInsideATransactionIsNotReused() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "n", name: "N"))
        #expect(store.suspend())
        try await store.transaction {
            _ = try store.upsert([location("1")])
            #expect(!store.suspend())
        }
        #expect(store.suspend())
        #expect(try store.locationIds(networkId: "n") == ["loc_n_1"])
    }

    /// Opening one more connection must not drop the locks of those already open: another process that found none
    /// would checkpoint and delete the write-ahead log they still use when it closes (it did: the store's own header
    /// check opened and closed the file outside SQLite, and a close drops all of the process's POSIX locks on it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func openingAnotherConnectionKeepsTheOthersLocks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("s.sqlite")
        let writer = try SQLiteLocationStore.create(path: path)
        try writer.upsertNetwork(Network(id: "n", name: "N"))
        let reader = try SQLiteLocationStore(path: path, readOnly: true)
        #expect(try reader.locationIds(networkId: "n").isEmpty)
        #expect(reader.suspend() && reader.resume())
        let another = try SQLiteLocationStore(path: path, readOnly: true)
        // Another process reads and closes: with the locks gone it would be the file's last connection.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM sqlite_master').fetchone(); c.close()",
            path,
        ]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the write-ahead log was deleted under open connections")
        _ = try writer.upsert([location("1")])
        #expect(try reader.locationIds(networkId: "n") == ["loc_n_1"])
        #expect(try another.locationIds(networkId: "n") == ["loc_n_1"])
    }
}
