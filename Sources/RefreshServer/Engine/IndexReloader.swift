import Foundation
import LocationStore
import Logging
import RegionRefresh
import ServiceLifecycle
import StoreOpening
import Synchronization

/// Loads the serving index when the server starts and rebuilds it whenever the store changes.
///
/// Rebuild requests that arrive while a rebuild runs are coalesced into one more rebuild, so a burst of imports costs
/// at most two builds. The engine swaps snapshots atomically, so requests keep being answered from the old index until
/// the new one is installed.
///
/// With a PostGIS store many replicas share the database: each listens for the `NOTIFY` every committed change sends
/// (on the primary; a standby cannot `LISTEN`), and also polls the store's version row, so that a notification lost
/// with a dropped connection only delays a rebuild. A rebuild that reads from a standby first waits until the standby
/// has replayed the version it was told about. When the database cannot be reached the last index keeps serving and
/// `/readyz` says so.
package final class IndexReloader: Service, Sendable {
    private let engine: RegionRefreshEngine
    private let access: StoreAccess
    private let metrics: ServerMetrics
    private let catalog: NetworkCatalog
    private let clock: ServerClock
    private let logger: Logger
    private let pollSeconds: Double
    /// The rebuilds the machine asks for, in order; it asks for the next only once the last has ended.
    private let rebuilds: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation
    private let generation = Atomic<Int>(0)
    private let waiters: ReloadWaiters
    private let machine = Mutex(ReloadStateMachine())

    package typealias State = ReloadStateMachine.State

    init(
        engine: RegionRefreshEngine, access: StoreAccess, pollSeconds: Double, metrics: ServerMetrics, catalog: NetworkCatalog,
        clock: ServerClock, logger: Logger
    ) {
        self.clock = clock
        self.engine = engine
        self.access = access
        self.pollSeconds = pollSeconds
        self.metrics = metrics
        self.catalog = catalog
        self.logger = logger
        waiters = ReloadWaiters(clock: clock)
        (rebuilds, continuation) = AsyncStream.makeStream(of: Int.self)
    }

    /// How many rebuilds have been installed; tests wait on it.
    package var completedReloads: Int { generation.load(ordering: .acquiring) }

    package var current: State { machine.withLock { $0.state } }

    /// Asks for a rebuild; returns at once.
    func scheduleReload() {
        carryOut(feed(.askedForRebuild))
    }

    /// Asks for a rebuild and returns once an index built after the ask is serving (so a write committed before the
    /// call is visible to the next request), or after `timeout` when rebuilds fail or take longer; says which.
    func reloadAndWait(timeout: Duration = .seconds(120)) async -> Bool {
        let (ticket, actions) = machine.withLock { m in
            let actions = m.handle(.askedForRebuild, at: clock.now())
            return (m.asked, actions)
        }
        carryOut(actions)
        return await waiters.wait(for: ticket, timeout: timeout)
    }

    package func run() async throws {
        carryOut(feed(.started))
        // The first index, retried while the store cannot be reached: a replica that starts before its database comes
        // up answers 503 on `/readyz` until it can serve, rather than exiting.
        for await covering in rebuilds {
            try await rebuild(covering: covering)
            if machine.withLock({ $0.isLoaded }) { break }
        }
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await self.rebuildWhenTold() }
                // A store with a version (one that announces its changes) is written by other processes too: it is
                // listened to and polled. A SQLite file announces nothing, but the CLI (or another server) may write
                // it too: its change-version row is polled, which costs a read of one row.
                if self.current.indexVersion != nil {
                    group.addTask { await self.listen() }
                    group.addTask { await self.poll() }
                } else {
                    group.addTask { await self.pollChangeVersion() }
                }
                // The rebuild loop ends at shutdown (its stream finishes); the others are cancelled with it.
                await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
    }

    /// Gives `event` to the machine, dated now.
    private func feed(_ event: ReloadStateMachine.Event) -> [ReloadStateMachine.Action] {
        machine.withLock { $0.handle(event, at: clock.now()) }
    }

    /// Carries out what the machine decided, but for the waits, which the loop that asked for them sleeps.
    private func carryOut(_ actions: [ReloadStateMachine.Action]) {
        for action in actions {
            switch action {
            case .rebuild(let covering): continuation.yield(covering)
            case .answer(let covered): waiters.answer(upTo: covered)
            case .loadAgain, .failStartup, .listenAgain: break
            }
        }
    }

    private func rebuildWhenTold() async throws {
        for await covering in rebuilds { try await rebuild(covering: covering) }
    }

    /// One rebuild the machine asked for; its outcome goes back to the machine.
    private func rebuild(covering: Int) async throws {
        do {
            let loaded = try await reload()
            install(loaded)
            let installed = ReloadStateMachine.Installed(
                indexVersion: loaded.version, trackedVersion: loaded.tracked, changesApplied: loaded.index.changesApplied)
            carryOut(feed(.rebuildInstalled(installed)))
            // Counted once /readyz tells of it: a test that waits for a rebuild then reads the state.
            generation.add(1, ordering: .releasing)
            return
        } catch {
            metrics.indexLoadFailed()
            let unreachable = Self.isUnreachable(error)
            if unreachable { metrics.storeReachable(false) }
            let actions = feed(.rebuildFailed(unreachable: unreachable, message: "\(error)"))
            carryOut(actions)
            for action in actions {
                switch action {
                case .loadAgain(let delay):
                    logger.warning("the store cannot be reached; retrying", metadata: ["error": "\(error)", "retry_seconds": "\(delay.inSeconds)"])
                    try await clock.sleep(for: delay)
                    carryOut(feed(.loadDue))
                case .failStartup: throw error
                default: break
                }
            }
            if machine.withLock({ $0.isLoaded }) {
                // The old index keeps serving; the next change or poll retries.
                logger.error("index rebuild failed; the previous index keeps serving", metadata: ["error": "\(error)"])
            }
        }
    }

    static func isUnreachable(_ error: any Error) -> Bool {
        if case StoreError.unreachable = error { return true }
        return false
    }

    /// `LISTEN` on the primary for committed changes, reconnecting with backoff when the connection drops.
    private func listen() async {
        while !Task.isCancelled {
            let started = clock.uptime()
            do {
                try await access.listen { [self] version in
                    self.carryOut(self.feed(.announced(version: version)))
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the LISTEN connection; reconnecting", metadata: ["error": "\(error)"])
            }
            for case .listenAgain(let delay) in feed(.listenEnded(heldFor: clock.uptime() - started)) {
                try? await clock.sleep(for: delay)
            }
            // Changes made while nobody listened: the poll would find them, but only after its interval.
            if let version = try? await access.withReader({ try await $0.changeVersion() }) { carryOut(feed(.announced(version: version))) }
        }
    }

    /// Reads the store's version every `pollSeconds`: catches a notification lost while the listener was down, and
    /// tells whether the store can be reached at all.
    private func poll() async {
        await readEvery(
            pollSeconds, read: { try await $0.changeVersion() },
            handle: { version in version.map { .announced(version: $0) } })
    }

    /// A store that announces nothing (a SQLite file): every `fileStorePollSeconds` (at most `pollSeconds`), its change
    /// version — bumped by every committing transaction of any process — against the index's; newer, the index is
    /// brought up to date through the same path as this server's own writes (which leave the two equal).
    private func pollChangeVersion() async {
        await readEvery(
            min(pollSeconds, Self.fileStorePollSeconds), read: { try await $0.trackedVersion() },
            handle: { .trackedVersionRead($0) })
    }

    /// Until cancelled, every `seconds`: `read` on the reader store, the event its answer makes to the machine; each
    /// read also tells whether the store can be reached.
    private func readEvery<T: Sendable>(
        _ seconds: Double, read: @Sendable @escaping (any LocationStore) async throws -> T, handle: (T) -> ReloadStateMachine.Event?
    ) async {
        while !Task.isCancelled {
            try? await clock.sleep(for: .seconds(seconds))
            if Task.isCancelled { return }
            do {
                let value = try await access.withReader(read)
                metrics.storeReachable(true)
                carryOut(feed(.storeReached))
                if let event = handle(value) { carryOut(feed(event)) }
            } catch {
                guard Self.isUnreachable(error) else { continue }
                metrics.storeReachable(false)
                carryOut(feed(.storeLost(message: "\(error)")))
            }
        }
    }

    /// How often a store file's change version is read: two seconds at most (a local read of one row).
    static let fileStorePollSeconds = 2.0

    /// Brings the serving index up to the store: by the changes since its version when there are few enough
    /// (`LocationIndex.applying`), else by a full build; the old index serves until the new one is installed.
    private func reload() async throws -> Loaded {
        let engine = engine
        let clock = clock
        let (wanted, since) = machine.withLock { ($0.state.knownVersion, $0.state.trackedVersion) }
        let current = engine.index
        // The store is given back before the index goes live, and a SQLite connection waiting for its next use
        // keeps no map of the file (`ReusableStore.suspend`): the file's mapped pages leave the resident set
        // before /readyz says ready, so what is resident then is the index's.
        return try await access.withReader(long: true) { store -> Loaded in
            // A standby may lag the primary that announced the version: wait (bounded) until it has replayed it.
            var version = try await store.changeVersion()
            if let wanted, let seen = version, seen < wanted {
                for _ in 0..<100 where (version ?? wanted) < wanted {
                    try await clock.sleep(for: .milliseconds(50))
                    version = try await store.changeVersion()
                }
            }
            if let current, let since {
                let limit = Self.changeLimit(current.count)
                let reading = clock.uptime()
                if let changes = try await store.changes(since: since, limit: limit) {
                    let read = clock.uptime() - reading
                    if let updated = current.applying(changes, limit: limit) {
                        return Loaded(
                            index: updated, networks: Self.counted(changes.networks, by: updated), version: version, tracked: changes.version,
                            changes: changes.count, readSeconds: read.inSeconds)
                    }
                }
            }
            // Read before the locations: a change committed during the read is read again by the next update.
            let tracked = try await store.trackedVersion()
            let index = try await engine.buildIndex(from: store)
            return Loaded(index: index, networks: try await store.networks(), version: version, tracked: tracked, changes: nil)
        }
    }

    /// What one reload read and made.
    private struct Loaded: Sendable {
        var index: LocationIndex
        var networks: [NetworkSummary]
        /// The announcing store's version (PostGIS), and the tracked change version the index answers.
        var version: Int64?
        var tracked: Int64
        /// Locations changed, when the index was brought up to date by changes rather than built, and the time it took
        /// to read them.
        var changes: Int?
        var readSeconds = 0.0
    }

    /// The store's networks with the index's counts of their locations (a change read does not count them).
    static func counted(_ networks: [NetworkSummary], by index: LocationIndex) -> [NetworkSummary] {
        let counts = Dictionary(index.networkSummaries.map { ($0.network.id, $0.locationCount) }, uniquingKeysWith: { a, _ in a })
        return networks.map { n in
            var n = n
            n.locationCount = counts[n.network.id] ?? 0
            return n
        }
    }

    /// Changes laid over a full build before the next update builds afresh: 1 % of the locations (at least 2,000). An
    /// update costs about what the changes since the build are; past that, a build costs little more, and searches
    /// beside the overlay would start to cost.
    static func changeLimit(_ locations: Int) -> Int { max(2_000, locations / 100) }

    private func install(_ loaded: Loaded) {
        engine.install(loaded.index)
        catalog.update(loaded.networks)
        // Dated by this server's clock, as everything it reports: /readyz and /metrics give the index's age from it.
        var info = loaded.index.info
        info.builtAt = clock.now()
        metrics.indexLoaded(info, storeVersion: loaded.version ?? loaded.tracked)
        var metadata: Logger.Metadata = [
            "locations": .stringConvertible(info.locationCount), "networks": .stringConvertible(info.networkCount),
            "build_seconds": .string(String(format: "%.3f", info.buildSeconds)),
            "store_version": .string(loaded.version.map(String.init) ?? "-"),
        ]
        if let changes = loaded.changes {
            // What the update and the write before it freed (the store's page cache, the previous overlay) goes back
            // to the system rather than staying in malloc's arenas: the resident set returns to the index's.
            LocationIndex.releaseFreedMemory()
            metadata["changes"] = .stringConvertible(changes)
            metadata["changes_since_build"] = .stringConvertible(loaded.index.changesApplied)
            metadata["read_seconds"] = .string(String(format: "%.3f", loaded.readSeconds))
            logger.info("index updated", metadata: metadata)
        } else {
            // The next update looks ids up in this build: make the table now, off the request that will need it.
            loaded.index.prepareForChanges()
            logger.info("index loaded", metadata: metadata)
        }
    }
}

extension StoreAccess {
    /// Listens for committed changes on the primary (PostGIS only), until cancelled or the connection fails.
    func listen(_ onChange: @Sendable @escaping (Int64) -> Void) async throws {
        let store = try await primary.open(readOnly: true, logger: logger)
        guard let announcing = store as? any ChangeAnnouncing else {
            await store.close()
            return
        }
        do {
            try await announcing.listenForChanges(onChange)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
