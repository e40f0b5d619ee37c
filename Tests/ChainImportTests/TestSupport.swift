import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import Testing

/// A fresh store in a temporary directory, removed when the test ends.
final class TempStore {
    let directory: URL
    let path: String
    let store: SQLiteLocationStore

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("store.sqlite").path
        store = try SQLiteLocationStore.create(path: path)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func file(_ name: String, _ text: String) throws -> String {
        let p = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    @discardableResult
    func importText(_ text: String, name: String = "test.csv", _ options: ImportOptions, chunkSize: Int = 1 << 16) async throws -> ImportReport {
        try await ChainImporter(store: store, options: options).run([.bytes(Array(text.utf8), name: name, chunkSize: chunkSize)])
    }

    func importFiles(_ paths: [String], _ options: ImportOptions) async throws -> ImportReport {
        try await ChainImporter(store: store, options: options).run(try paths.map { try ImportInput.file($0) })
    }

    /// Every location, sorted by id: the store's content for before/after comparisons.
    func snapshot() throws -> [Location] {
        var all: [Location] = []
        try store.forEachLocation(batchSize: 10_000) { all += $0 }
        return all.sorted { $0.id < $1.id }
    }
}
