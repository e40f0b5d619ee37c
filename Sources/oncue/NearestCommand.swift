import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore

struct Nearest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The nearest locations to a point, from the store's geohash index.",
        discussion: """
            Coordinates are decimal degrees; negative values need no quoting.

            Example:
              oncue nearest --db stores.sqlite 40.7128 -74.0060
              oncue nearest --db stores.sqlite 37.77 -122.42 --radius-km 10 --limit 5 --network sfpl \\
                --format json
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "Search radius in kilometres.") var radiusKm: Double = 50
    @Option(help: "Maximum number of locations.") var limit: Int = 20
    @OptionGroup var networks: NetworkListOptions
    @OptionGroup var output: OutputOptions
    @Argument(parsing: .allUnrecognized, help: "LAT LON") var coordinate: [String] = []

    func validate() throws {
        guard radiusKm > 0, radiusKm <= 20_000, radiusKm.isFinite else { throw ValidationError("--radius-km must be in (0, 20000], got \(radiusKm)") }
        guard limit >= 1, limit <= 10_000 else { throw ValidationError("--limit must be in 1...10000, got \(limit)") }
        _ = try parseCoordinate(coordinate, of: Self.self)
    }

    struct Row: Encodable {
        var id: String
        var network_id: String
        var name: String
        var address: String?
        var lat: Double
        var lon: Double
        var distance_m: Double
        /// The location's own region radius, and its venue size, when its file gave them.
        var radius_m: Double?
        var venue_radius_m: Double?
    }

    func run() async throws {
        let center = try parseCoordinate(coordinate, of: Self.self)
        let query = NearbyQuery(
            center: center, radiusMeters: radiusKm * 1000, limit: limit,
            networks: networks.ids.isEmpty ? nil : Set(networks.ids))
        let (results, networkNames) = try await store.withStore(readOnly: true) { store in
            let found = try await store.nearby(query)
            // A location without a name of its own is shown with its network's, as the server serves it.
            let names =
                found.contains { $0.location.name.isEmpty }
                ? Dictionary(try await store.networks().map { ($0.network.id, $0.network.name) }, uniquingKeysWith: { a, _ in a }) : [:]
            return (found, names)
        }
        let rows = results.map {
            Row(
                id: $0.location.id, network_id: $0.location.networkId,
                name: $0.location.name.isEmpty ? networkNames[$0.location.networkId] ?? $0.location.networkId : $0.location.name,
                address: $0.location.address,
                lat: $0.location.coordinate.latitude, lon: $0.location.coordinate.longitude,
                distance_m: ($0.distanceMeters * 10).rounded() / 10, radius_m: $0.location.radiusMeters,
                venue_radius_m: $0.location.venueRadiusMeters)
        }
        if output.isJSON {
            print(try jsonString(rows))
            return
        }
        if rows.isEmpty {
            print("no locations within \(radiusKm) km")
            return
        }
        print(
            textTable(
                ["#", "distance_m", "network", "id", "own radius", "name"],
                rows.enumerated().map { i, r in
                    let own = r.radius_m.map { String(format: "%g m", $0) } ?? r.venue_radius_m.map { String(format: "venue %g m", $0) } ?? ""
                    return [String(i + 1), String(format: "%.1f", r.distance_m), r.network_id, r.id, own, r.name]
                }), terminator: "")
    }
}
