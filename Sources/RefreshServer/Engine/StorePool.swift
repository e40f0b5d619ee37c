import LocationStore
import ServiceLifecycle
import Synchronization

/// The stores a server keeps open between uses (`ReusableStore`: SQLite and PostgreSQL connections). Each use takes an
/// idle one, or opens one, and gives it back when it is done. So no use pays for opening one (SpatiaLite's loading
/// and the schema checks; a PostgreSQL connection and its authentication), and no use closes a SQLite file's last
/// connection, which would checkpoint the whole write-ahead log under an exclusive lock while the next writer waits
/// (after a large import: seconds on a busy disk, long enough for the writer's busy timeout to refuse it).
///
/// A store belongs to one use at a time: the pool holds it only while no task does. A store is checked before it is
/// kept and before it serves again (`suspend`, `resume`). A SQLite file's schema is checked when it is opened, so a
/// connection kept open does not see another build upgrade it meanwhile (a file's server is upgraded with it); a
/// PostgreSQL connection reads the schema version again before each use, as replicas of several builds share one
/// database. Run as a service, the pool closes its idle stores at shutdown; after that, every store is closed after
/// its use.
final class StorePool: Service, Sendable {
    private struct Key: Hashable {
        let address: StoreAddress
        let readOnly: Bool
    }

    /// An idle store; @unchecked because the pool is its only holder until `take` hands it to one task.
    private final class Idle: @unchecked Sendable {
        let store: any ReusableStore
        init(_ store: any ReusableStore) { self.store = store }
    }

    private let state = Mutex<(idle: [Key: [Idle]], closed: Bool)>(([:], false))
    /// Idle stores kept per address and mode: one for each of the server's threads that use the store at once.
    let capacity: Int
    /// Opens a new store when no idle one is left.
    private let open: @Sendable (StoreAddress, _ readOnly: Bool) async throws -> any LocationStore

    init(capacity: Int = 4, open: @escaping @Sendable (StoreAddress, _ readOnly: Bool) async throws -> any LocationStore) {
        self.capacity = capacity
        self.open = open
    }

    /// Runs `body` with a store of `address`: an idle one when there is one, a new one otherwise. The store is given
    /// back when `body` has ended, returning or throwing (a refused import file leaves its connection as good as it
    /// found it), if the store says it can serve again (`suspend`: no transaction or bulk import left open); it is
    /// closed otherwise.
    func with<T: Sendable>(_ address: StoreAddress, readOnly: Bool, _ body: (any LocationStore) async throws -> T) async throws -> T {
        let key = Key(address: address, readOnly: readOnly)
        let store: any LocationStore
        if let idle = await take(key) { store = idle } else { store = try await open(address, readOnly) }
        let result: Result<T, any Error>
        do { result = .success(try await body(store)) } catch { result = .failure(error) }
        if let reusable = store as? any ReusableStore, reusable.suspend(), give(reusable, key) { return try result.get() }
        await store.close()
        return try result.get()
    }

    /// The most recently used idle store, if it is still fit for a use. When it is not, the others kept with it are
    /// closed too rather than tried one by one: what made one unfit (a database host that vanished, a firewall that
    /// dropped idle connections) most likely took them all, and each try may cost a PostgreSQL `connect_timeout`.
    private func take(_ key: Key) async -> (any LocationStore)? {
        guard let idle = state.withLock({ $0.idle[key]?.popLast() }) else { return nil }
        if await idle.store.resume() { return idle.store }
        let rest = state.withLock { $0.idle.removeValue(forKey: key) ?? [] }
        for store in [idle] + rest { await store.store.close() }
        return nil
    }

    /// Keeps `store` for the next use; false when the pool is full or closed (the caller closes it).
    private func give(_ store: any ReusableStore, _ key: Key) -> Bool {
        let idle = Idle(store)
        return state.withLock { state in
            guard !state.closed, state.idle[key, default: []].count < capacity else { return false }
            state.idle[key, default: []].append(idle)
            return true
        }
    }

    /// How many stores wait for a use now (tests).
    var idleCount: Int { state.withLock { $0.idle.values.reduce(0) { $0 + $1.count } } }

    /// Closes the idle stores and keeps none from now on.
    func close() async {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [:] }
            return state.idle.values.flatMap { $0 }
        }
        for entry in idle { await entry.store.close() }
    }

    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }
}
