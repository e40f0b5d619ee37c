import Foundation
import Geo
import OnCueClient
import OnCueContract

/// A small world for the state machine's tests: stores on a line north of a point, a wallet, and a server that
/// answers a refresh with the nearest stores by brute force (and a refresh region when asked).
struct MachineWorld {
    static let origin = (lat: 60.17, lon: 24.94)
    static let wallet = Wallet(cards: [Wallet.Card(networkId: "acme", name: "Acme"), Wallet.Card(networkId: "bolt", name: "Bolt")])

    /// `count` stores 100 m apart going north, alternating acme, bolt and a network the wallet lacks.
    static func stores(_ count: Int) -> [Region] {
        (0..<count).map { i in
            let network = ["acme", "bolt", "other"][i % 3]
            return Region(
                id: "s\(i)", networkId: network, lat: origin.lat + Double(i) * 100 / 111_195, lon: origin.lon, radiusMeters: 60, priority: 1,
                name: "store \(i)", address: nil)
        }
    }

    /// A fix `north` metres north of the origin.
    static func fix(_ time: Double, north: Double, accuracy: Double = 10) -> LocationFix {
        LocationFix(time: time, latitude: origin.lat + north / 111_195, longitude: origin.lon, accuracy: accuracy)
    }

    /// The server's answer: the nearest stores (up to the request's max_regions, one slot kept for a refresh region
    /// when asked), and a refresh distance.
    static func answer(_ request: RegionRefreshRequest, stores: [Region], refreshAfter: Double = 400) -> RegionRefreshResponse {
        let here = UnitVector(latitude: request.lat, longitude: request.lon)
        let slots = (request.maxRegions ?? 20) - (request.reserveRefreshRegion == true ? 1 : 0)
        var regions = Array(
            stores.sorted {
                here.meters(to: UnitVector(latitude: $0.lat, longitude: $0.lon)) < here.meters(to: UnitVector(latitude: $1.lat, longitude: $1.lon))
            }
            .prefix(max(0, slots)))
        if request.reserveRefreshRegion == true {
            regions.append(
                Region(
                    id: "refresh", networkId: "", lat: request.lat, lon: request.lon, radiusMeters: refreshAfter, priority: 0, name: "", address: nil,
                    kind: .refresh))
        }
        return RegionRefreshResponse(
            regions: regions, refreshAfterMeters: refreshAfter, cacheTtlSeconds: 3600, serverTime: "2026-11-27T00:00:00Z", coverageGuaranteed: true)
    }

    static func settings(_ spec: String, configure: (inout AppSettings) -> Void = { _ in }) throws -> ClientSettings {
        var app = AppSettings()
        configure(&app)
        return ClientSettings(strategy: try ClientStrategy.parse(spec), app: app, storeRadiusMeters: 25)
    }
}

extension Array where Element == ClientAction {
    var refreshes: [RefreshCall] { compactMap { if case .refresh(let c) = $0 { c } else { nil } } }
    var started: [RegionWatch] { compactMap { if case .startMonitoring(let w) = $0 { w } else { nil } } }
    var stopped: [RegionWatch] { compactMap { if case .stopMonitoring(let w) = $0 { w } else { nil } } }
    var posted: [CardNotice] { compactMap { if case .postCard(let n) = $0 { n } else { nil } } }
    var withdrawn: [CardNotice] { compactMap { if case .withdrawCard(let n) = $0 { n } else { nil } } }
    var stateRequests: [String] { compactMap { if case .requestState(let id) = $0 { id } else { nil } } }
    var wakes: [(id: Int, at: Double)] { compactMap { if case .scheduleWake(let id, let at) = $0 { (id, at) } else { nil } } }
    var notes: [ClientNote] { compactMap { if case .note(let n) = $0 { n } else { nil } } }
}
