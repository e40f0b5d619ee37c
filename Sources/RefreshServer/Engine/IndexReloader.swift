import Foundation
import LocationStore
import Logging
import RegionRefresh
import ServiceLifecycle
import Synchronization

/// Loads the serving index when the server starts and rebuilds it whenever the store changes.
///
/// Rebuild requests that arrive while a rebuild runs are coalesced into one more rebuild, so a
/// burst of imports costs at most two builds. The engine swaps snapshots atomically, so requests
/// keep being answered from the old index until the new one is installed.
public final class IndexReloader: Service, Sendable {
    private let engine: RegionRefreshEngine
    private let databasePath: String
    private let metrics: ServerMetrics
    private let catalog: NetworkCatalog
    private let logger: Logger
    private let requests: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let generation = Atomic<Int>(0)

    init(engine: RegionRefreshEngine, databasePath: String, metrics: ServerMetrics, catalog: NetworkCatalog, logger: Logger) {
        self.engine = engine
        self.databasePath = databasePath
        self.metrics = metrics
        self.catalog = catalog
        self.logger = logger
        (requests, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// How many rebuilds have been installed; tests wait on it.
    public var completedReloads: Int { generation.load(ordering: .acquiring) }

    /// Asks for a rebuild; returns at once.
    func scheduleReload() { continuation.yield() }

    public func run() async throws {
        // The first load is not optional: without it the server can only answer 503.
        try await reload()
        await withGracefulShutdownHandler {
            for await _ in requests {
                do { try await reload() } catch {
                    // The old index keeps serving; the next import retries.
                    logger.error("index rebuild failed; the previous index keeps serving", metadata: ["error": "\(error)"])
                }
            }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
    }

    private func reload() async throws {
        let engine = engine, path = databasePath, catalog = catalog
        do {
            // The store is closed before the index goes live: its memory-mapped pages (the whole file, once read)
            // leave the resident set before /readyz says ready, so what is resident then is the index's.
            let (index, networks) = try await BlockingWorkExecutor.rebuilds.run {
                let store = try SQLiteLocationStore(path: path, readOnly: true)
                return (try await engine.buildIndex(from: store), try store.networks())
            }
            engine.install(index)
            catalog.update(networks)
            let info = index.info
            metrics.indexLoaded(info)
            generation.add(1, ordering: .releasing)
            logger.info("index loaded", metadata: [
                "locations": .stringConvertible(info.locationCount), "networks": .stringConvertible(info.networkCount),
                "build_seconds": .string(String(format: "%.3f", info.buildSeconds)),
            ])
        } catch {
            metrics.indexLoadFailed()
            throw error
        }
    }
}
