import Foundation

/// What the index reloader does next, decided from what happened to it: a value with no I/O and no clock of its own,
/// as `ClientStateMachine` is for the phone. `IndexReloader` feeds it events — a rebuild asked for, a version
/// announced or read, a rebuild installed or failed, the store reached or lost, the `LISTEN` connection ended — and
/// carries out the actions it returns, so every path (coalescing, the first load's backoff, a standby's lag, the
/// listener's reconnects) is tested event by event without a store, a socket or a sleep.
///
/// Rebuilds run one at a time. Asks are numbered; a rebuild covers every ask made before it began, and asks that
/// arrive while one runs are coalesced into one more, so a burst of imports costs at most two builds.
package struct ReloadStateMachine: Sendable {
    /// What `/readyz` and `/metrics` tell about the index and the store.
    package struct State: Sendable, Equatable {
        /// The store version the serving index was built from (PostGIS), and when it went live by the server's clock.
        package var indexVersion: Int64?
        package var builtAt: Date?
        /// The newest version announced or seen; a rebuild is due while it exceeds `indexVersion`.
        package var knownVersion: Int64?
        /// The store's change version the serving index answers (`LocationStore.trackedVersion`): the next update
        /// reads the changes after it.
        package var trackedVersion: Int64?
        /// Changes laid over the last full build (0 right after one).
        package var changesApplied = 0
        /// Since when the store could not be reached (nil: it answers).
        package var unreachableSince: Date?
        package var lastError: String?
    }

    /// What an installed rebuild made.
    package struct Installed: Sendable, Equatable {
        package var indexVersion: Int64?
        package var trackedVersion: Int64
        package var changesApplied: Int

        package init(indexVersion: Int64?, trackedVersion: Int64, changesApplied: Int) {
            self.indexVersion = indexVersion
            self.trackedVersion = trackedVersion
            self.changesApplied = changesApplied
        }
    }

    package enum Event: Sendable, Equatable {
        /// The server started: the first index is to be loaded.
        case started
        /// A rebuild was asked for (`scheduleReload`, `reloadAndWait`).
        case askedForRebuild
        /// A store version, from `NOTIFY` or a poll of the version row.
        case announced(version: Int64)
        /// A store file's change version, from its poll.
        case trackedVersionRead(Int64)
        case rebuildInstalled(Installed)
        /// A rebuild failed; `unreachable` when the store could not be reached (else it is an error of the data).
        case rebuildFailed(unreachable: Bool, message: String)
        /// The first load's backoff has passed.
        case loadDue
        /// A poll read the store, or could not reach it.
        case storeReached
        case storeLost(message: String)
        /// The `LISTEN` connection ended (dropped, or refused) after it held for `heldFor`.
        case listenEnded(heldFor: Duration)
    }

    package enum Action: Sendable, Equatable {
        /// Build or update the index; once installed it answers asks up to `covering`.
        case rebuild(covering: Int)
        /// Resume the callers waiting for asks up to this one.
        case answer(upTo: Int)
        /// The first load could not reach the store: try again after this wait (`loadDue`).
        case loadAgain(after: Duration)
        /// The first load failed for a reason retrying cannot mend: the server cannot start.
        case failStartup(String)
        /// Listen again after this wait.
        case listenAgain(after: Duration)
    }

    private enum Phase: Sendable, Equatable {
        case idle
        case rebuilding(covering: Int)
        /// The first load failed and waits for its retry.
        case waitingToLoad
    }

    package private(set) var state = State()
    /// Asks made so far: the number the next `reloadAndWait` waits for.
    package private(set) var asked = 0
    /// Whether an index has been installed.
    package private(set) var isLoaded = false
    private var phase = Phase.idle
    /// An ask arrived while a rebuild ran (or waited): one more is due after it.
    private var pending = false
    private var loadDelay = Self.firstDelay
    private var listenDelay = Self.firstDelay

    static let firstDelay = Duration.milliseconds(500)
    static let longestDelay = Duration.seconds(30)
    /// A `LISTEN` connection that held this long starts its backoff over.
    static let heldLongEnough = Duration.seconds(30)

    package init() {}

    /// Takes in `event`, which happened at `date` by the server's clock; returns what to do.
    package mutating func handle(_ event: Event, at date: Date) -> [Action] {
        switch event {
        case .started, .loadDue:
            return startRebuild()
        case .askedForRebuild:
            asked += 1
            return rebuildIfIdle()
        case .announced(let version):
            state.knownVersion = max(state.knownVersion ?? 0, version)
            return version > (state.indexVersion ?? 0) ? rebuildIfIdle() : []
        case .trackedVersionRead(let version):
            return version != state.trackedVersion ? rebuildIfIdle() : []
        case .rebuildInstalled(let installed):
            return install(installed, at: date)
        case .rebuildFailed(let unreachable, let message):
            if unreachable { markLost(message, at: date) }
            return rebuildFailed(unreachable: unreachable, message: message)
        case .storeReached:
            state.unreachableSince = nil
            state.lastError = nil
            return []
        case .storeLost(let message):
            markLost(message, at: date)
            return []
        case .listenEnded(let heldFor):
            if heldFor > Self.heldLongEnough { listenDelay = Self.firstDelay }
            defer { listenDelay = min(listenDelay * 2, Self.longestDelay) }
            return [.listenAgain(after: listenDelay)]
        }
    }

    private mutating func rebuildIfIdle() -> [Action] {
        guard phase == .idle, isLoaded else {
            pending = true
            return []
        }
        return startRebuild()
    }

    private mutating func startRebuild() -> [Action] {
        pending = false
        phase = .rebuilding(covering: asked)
        return [.rebuild(covering: asked)]
    }

    private mutating func install(_ installed: Installed, at date: Date) -> [Action] {
        guard case .rebuilding(let covering) = phase else { return [] }
        state.indexVersion = installed.indexVersion
        state.trackedVersion = installed.trackedVersion
        state.changesApplied = installed.changesApplied
        state.builtAt = date
        state.knownVersion = max(state.knownVersion ?? 0, installed.indexVersion ?? 0)
        state.unreachableSince = nil
        state.lastError = nil
        isLoaded = true
        loadDelay = Self.firstDelay
        phase = .idle
        // Asked meanwhile: one more. (A version announced past what a lagging standby gave is asked again by the
        // next poll, not here, so a standby that stays behind costs a rebuild per poll rather than a busy loop.)
        return [.answer(upTo: covering)] + (pending ? startRebuild() : [])
    }

    private mutating func rebuildFailed(unreachable: Bool, message: String) -> [Action] {
        guard isLoaded else {
            guard unreachable else {
                phase = .idle
                return [.failStartup(message)]
            }
            phase = .waitingToLoad
            defer { loadDelay = min(loadDelay * 2, Self.longestDelay) }
            return [.loadAgain(after: loadDelay)]
        }
        // The old index keeps serving; the next ask, announcement or poll tries again.
        phase = .idle
        return pending ? startRebuild() : []
    }

    private mutating func markLost(_ message: String, at date: Date) {
        if state.unreachableSince == nil { state.unreachableSince = date }
        state.lastError = message
    }
}
