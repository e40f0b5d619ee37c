#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Anything that answers region-refresh requests: the in-process engine, or a client of a running server.
/// The simulator and the HTTP service depend on this, not on a concrete engine.
public protocol RegionRefreshing: Sendable {
    /// Validates and answers a request; throws `RegionRefreshError` for a bad request or an unloaded index.
    func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse
}
