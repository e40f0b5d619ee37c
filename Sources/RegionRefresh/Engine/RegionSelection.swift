import Foundation
import Geo
import LocationStore
import OnCueContract

/// The regions the engine chose for one request, held as location numbers in the index snapshot they came
/// from rather than as strings.
///
/// The server writes its JSON straight from a selection (`write(to:)`); `response()` builds the Codable
/// `RegionRefreshResponse` for everything else. Both go through one enumeration of the regions (`forEachRegion`)
/// and one writer (`JSONWriter.region`), and the oracle tests check that they agree byte for byte. A selection keeps its snapshot alive, so it stays valid
/// across an index swap.
public struct RegionSelection: Sendable {
    let index: LocationIndex
    let regions: RegionList
    /// See `EngineConfiguration.mergedIdsLimit`.
    let mergedIdsLimit: Int
    /// Score parts of each draft, when the request asked for `explain`; otherwise empty.
    let explanations: [Region.Explanation]
    let phone: Coordinate
    let reservesRefreshRegion: Bool
    /// Refresh after moving this far from where the request was made (metres, whole).
    public let refreshAfterMeters: Double
    public let coverageGuaranteed: Bool
    /// Why there is no guarantee (nil when there is one).
    public let coverageReason: CoverageReason?
    public let cacheTTLSeconds: Int
    public let serverTime: String
    /// Whether a tier stopped at the engine's candidate or visit budget (a dense cluster, rows piled on one point),
    /// answering with the regions it had.
    public let selectionLimited: Bool
    /// The card networks the request named that no network, alias or display name matches, as given.
    public let unknownNetworks: [String]
    /// The card networks the request named that a network matches, and its id, in the order of their spellings.
    public let resolvedNetworks: [ResolvedNetwork]
    /// Whether the refresh distance came from the tier-1 collection without a search of its own (for tests).
    let refreshDistanceFromCollection: Bool
    /// Locations the selection's searches looked at: the work a request cost (for tests that bound it).
    let visitedLocations: Int

    /// How many regions the response lists (split-venue circles and the refresh region included).
    public var regionCount: Int { regions.slotsUsed + (reservesRefreshRegion ? 1 : 0) }

    /// The Codable response.
    public func response() -> RegionRefreshResponse {
        var output: [Region] = []
        output.reserveCapacity(regionCount)
        forEachRegion { output.append($0.region) }
        return RegionRefreshResponse(
            regions: output, refreshAfterMeters: refreshAfterMeters, cacheTtlSeconds: cacheTTLSeconds,
            serverTime: serverTime, coverageGuaranteed: coverageGuaranteed, coverageReason: coverageReason,
            selectionLimited: selectionLimited ? true : nil, unknownNetworks: unknownNetworks.isEmpty ? nil : unknownNetworks,
            resolvedNetworks: resolvedNetworks.isEmpty ? nil : Dictionary(resolvedNetworks.map { ($0.spelling, $0.networkId) }) { first, _ in first })
    }

    /// The wire form of the response, as `POST /v1/region-refresh` sends it.
    public func wireJSON() -> [UInt8] {
        var w = JSONWriter(capacity: 256 + regionCount * 256)
        write(to: &w)
        return w.bytes
    }

    /// Appends the wire form of the response (what `response().write(to:)` writes) to `w`, reading ids, names and
    /// addresses in place in the index rather than building `Region` values first.
    public func write(to w: inout JSONWriter) {
        w.regionRefreshResponse(
            refreshAfterMeters: refreshAfterMeters, cacheTtlSeconds: cacheTTLSeconds, serverTime: serverTime,
            coverageGuaranteed: coverageGuaranteed, coverageReason: coverageReason, selectionLimited: selectionLimited,
            unknownNetworks: unknownNetworks, resolvedNetworks: resolvedNetworks
        ) { w in
            forEachRegion { w.region($0) }
        }
    }

    /// The regions in response order, priorities 1…n.
    func forEachRegion(_ body: (borrowing RegionView) -> Void) {
        var priority = 0
        do {
            for j in regions.drafts.indices {
                let draft = regions.drafts[j]
                let g = Int(draft.lead.member)
                let center = draft.movedCenter ?? index.textRecord(g).pointee.coordinate
                let networkId = index.networks[Int(draft.network)].id
                let merged =
                    draft.mergedCount == 0
                    ? nil : regions.members(of: j).prefix(mergedIdsLimit).map { index.textRecord(Int($0.member)).pointee.id }.sorted()
                let explanation = explanations.isEmpty ? nil : explanations[j]
                priority += 1
                body(
                    RegionView(
                        id: index.textRecord(g).pointee.id, networkId: networkId, lat: center.latitude, lon: center.longitude,
                        radiusMeters: draft.radius.rounded(.up), priority: priority, name: index.textRecord(g).pointee.name,
                        address: index.textRecord(g).pointee.address,
                        kind: .location, mergedLocationIds: merged, mergedCount: draft.mergedCount == 0 ? nil : draft.mergedCount,
                        explain: explanation))
                guard draft.partCount > 0 else { continue }
                let ring = RegionAssembler.ringParts(center: center, venue: Double(draft.lead.point.radius), phone: phone, policy: index.policy)
                for part in ring.prefix(draft.partCount) {
                    priority += 1
                    body(
                        RegionView(
                            id: index.textRecord(g).pointee.id, idSuffix: part.suffix, networkId: networkId, lat: part.center.latitude,
                            lon: part.center.longitude, radiusMeters: draft.radius.rounded(.up), priority: priority,
                            name: index.textRecord(g).pointee.name,
                            address: index.textRecord(g).pointee.address, kind: .location, explain: explanation))
                }
            }
        }
        if reservesRefreshRegion {
            body(
                RegionView(
                    id: Self.refreshRegionId, networkId: Self.refreshRegionId, lat: phone.latitude, lon: phone.longitude,
                    radiusMeters: refreshAfterMeters, priority: priority + 1, name: Self.refreshRegionName, kind: .refresh))
        }
    }

    static let refreshRegionId = "oncue-refresh"
    static let refreshRegionName = "Refresh region"
}

/// A card network's spelling in a request and the id of the network it names.
public struct ResolvedNetwork: Sendable, Hashable {
    public let spelling: String
    public let networkId: String
}
