import Foundation
import LocationStore
import OnCueContract
import Synchronization

/// The region-refresh engine: holds the current index snapshot and answers requests from it.
///
/// `reload(from:)` builds a new snapshot off to the side and swaps it in with one pointer exchange:
/// a request in flight keeps the snapshot it started with, so no request ever sees a half-built index.
/// The engine never logs or stores request coordinates.
public final class RegionRefreshEngine: RegionRefreshing, Sendable {
    public let configuration: EngineConfiguration
    private let current: Mutex<LocationIndex?>

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
        current = Mutex(nil)
    }

    public init(index: LocationIndex, configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
        current = Mutex(index)
    }

    /// The snapshot requests are answered from, if one is loaded.
    public var index: LocationIndex? { current.withLock { $0 } }
    public var isReady: Bool { index != nil }

    /// Makes `index` the snapshot for every request that starts from now on.
    public func install(_ index: LocationIndex) {
        current.withLock { $0 = index }
    }

    /// Builds a snapshot from the store with this engine's radius policy, without installing it (a caller that
    /// closes the store first installs it afterwards).
    public func buildIndex(from store: any LocationStore) async throws -> LocationIndex {
        try await LocationIndex.build(from: store, policy: configuration.radiusPolicy)
    }

    /// Builds a snapshot from the store with this engine's radius policy and installs it.
    @discardableResult
    public func reload(from store: any LocationStore) async throws -> LocationIndex.Info {
        let index = try await buildIndex(from: store)
        install(index)
        return index.info
    }

    public func refresh(_ request: RegionRefreshRequest, now: Date) throws -> RegionRefreshResponse {
        try refresh(request.validated(), now: now)
    }

    public func refresh(_ parameters: RefreshParameters, now: Date) throws(RegionRefreshError) -> RegionRefreshResponse {
        try select(parameters, now: now).response()
    }

    /// The regions for a validated request, before they are turned into strings: what the server writes its
    /// JSON from.
    public func select(_ parameters: RefreshParameters, now: Date) throws(RegionRefreshError) -> RegionSelection {
        guard let index else { throw .notReady }
        return Prioritizer(index: index, configuration: configuration).select(parameters, now: now)
    }

    /// The same with smaller budgets (never larger ones than the configuration's): a caller can try a cheap selection
    /// first and move the rare expensive one (`selectionLimited`) elsewhere.
    public func select(
        _ parameters: RefreshParameters, now: Date, candidateBudget: Int, visitBudget: Int = .max
    ) throws(RegionRefreshError) -> RegionSelection {
        guard let index else { throw .notReady }
        var bounded = configuration
        bounded.candidateBudget = max(1, min(candidateBudget, configuration.candidateBudget))
        bounded.visitBudget = max(1, min(visitBudget, configuration.visitBudget))
        return Prioritizer(index: index, configuration: bounded).select(parameters, now: now)
    }
}
