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

    /// Builds and installs a snapshot holding only what a request at `parameters`' point can read: a one-off answer
    /// (`oncue refresh`) then costs the place, not the store. The answer is the full snapshot's: a selection reads
    /// locations within the request's radius or the refresh ceiling (plus the fix's uncertainty) of the phone, plus
    /// the largest region radius; a region's radius depends on its neighbours within the density probe, and merging
    /// on same-network regions that overlap it, so the snapshot reaches three largest radii and the probe farther.
    /// Budgets are the exception: a selection that looked at many locations may have looked at others in the full
    /// snapshot's trees, so a caller re-answers from a full snapshot when `needsFullIndex` says so.
    @discardableResult
    public func reload(for parameters: RefreshParameters, from store: any LocationStore) async throws -> LocationIndex.Info {
        let stored = try await store.largestStoredRadius()
        let meters = Self.reach(of: parameters, configuration: configuration, largestStoredRadius: stored)
        let index = try await LocationIndex.build(
            from: store, around: parameters.center, meters: meters,
            radiusBound: Self.largestRadius(parameters, configuration: configuration, largestStoredRadius: stored),
            policy: configuration.radiusPolicy)
        install(index)
        return index.info
    }

    /// How far from the phone a snapshot for one request must reach (see `reload(for:from:)`).
    static func reach(of p: RefreshParameters, configuration: EngineConfiguration, largestStoredRadius: Double) -> Double {
        let largest = largestRadius(p, configuration: configuration, largestStoredRadius: largestStoredRadius)
        let read = max(p.radiusMeters, configuration.refreshCeilingMeters + max(p.accuracyMeters ?? 0, 0))
        return read + 3 * largest + configuration.radiusPolicy.densityProbeMeters + 1_000
    }

    /// The largest region any location of the store can have for this request: the policy's own largest (a split
    /// venue's ring of circles reaches about its venue radius, capped at twice the large-area maximum; half as much
    /// again for the ring's geometry), a radius the store asks for, or the request's floor.
    static func largestRadius(_ p: RefreshParameters, configuration: EngineConfiguration, largestStoredRadius: Double) -> Double {
        let policy = configuration.radiusPolicy
        let byPolicy = 1.5 * max(policy.rural.upperBound, 2 * policy.largeArea.upperBound, policy.largeAreaDefault)
        return max(byPolicy, largestStoredRadius, p.minRadiusMeters ?? configuration.minRadiusMeters)
    }

    /// Whether a selection from a snapshot built by `reload(for:from:)` may differ from the full snapshot's: it hit
    /// a budget, or looked at enough locations that the full snapshot's trees, which visit others beside them, might.
    public func needsFullIndex(_ selection: RegionSelection) -> Bool {
        selection.selectionLimited || selection.visitedLocations * 2 > configuration.visitBudget
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
