import ArgumentParser
import CommandLineOutput
import Foundation
import LocationStore
import PostGISStore
import SQLiteStore

struct BenchReuse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reuse",
        abstract: "A store use (the replicas' poll: read the version row) on a connection kept between uses, against one opened for it.",
        discussion: """
            The server's pool keeps a connection between uses, and checks it before each (a PostgreSQL connection
            reads the schema version; a SQLite one maps its file again). The baseline opens a store for each use and
            closes it after, as the server did for PostgreSQL before. --db takes a store file (created if missing)
            or a postgres:// URL of an existing OnCue store.

            Example:
              swift build -c release --package-path Benchmarks --product oncue-bench
              Benchmarks/.build/release/oncue-bench reuse --db postgres://oncue@127.0.0.1:15433/oncue_bench
            """
    )
    @Option(help: "A store file or a postgres:// URL.") var db: String
    @Option(help: "Seconds per method.") var seconds: Double = 5
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let open = try opener()
        var samples: [LatencySample] = []
        samples.append(
            try await measureUses("opened for the use, closed after", for: seconds) {
                let store = try await open()
                _ = try await store.trackedVersion()
                await store.close()
            })
        let kept = try await open()
        guard let reusable = kept as? any ReusableStore else { throw ValidationError("\(db) is no store the server keeps") }
        samples.append(
            try await measureUses("kept between uses, checked before each", for: seconds) {
                guard await reusable.resume() else { throw ValidationError("the kept store could not serve again") }
                _ = try await reusable.trackedVersion()
                guard reusable.suspend() else { throw ValidationError("the kept store could not be kept") }
            })
        await kept.close()
        if json {
            print(try jsonString(samples))
            return
        }
        print("store: \(db.hasPrefix("postgres") ? "PostgreSQL" : db); one use = read the store's version")
        printSamples(samples, baseline: "opened for the use, closed after")
    }

    private func opener() throws -> @Sendable () async throws -> any LocationStore {
        guard PostgresURL.isURL(db) else {
            if !FileManager.default.fileExists(atPath: db) { _ = try SQLiteLocationStore.create(path: db) }
            let path = db
            return { try SQLiteLocationStore(path: path, readOnly: true) }
        }
        let url = try PostgresURL(db)
        return { try await PostGISLocationStore.open(url, readOnly: true) }
    }

    /// Runs `use` again and again for `limit` seconds, timing each.
    private func measureUses(_ name: String, for limit: Double, _ use: () async throws -> Void) async throws -> LatencySample {
        var samples: [UInt64] = []
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(limit * 1000))
        while ContinuousClock.now < deadline {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try await use()
            samples.append(DispatchTime.now().uptimeNanoseconds - t0)
        }
        return LatencySample(name: name, nanoseconds: samples, wallSeconds: oncue_bench.seconds(since: start))
    }
}
