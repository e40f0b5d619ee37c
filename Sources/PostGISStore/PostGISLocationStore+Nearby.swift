import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    /// The `limit` nearest within the radius, through the GiST index (`<->` orders by distance, `ST_DWithin` bounds it).
    ///
    /// PostGIS measures on a sphere of a slightly different radius than OnCue's, so the candidates are ranked again
    /// here by OnCue's own haversine distance, ties by id: the answer equals the SQLite store's. A few candidates
    /// beyond `limit` come along so that a rank that differs by rounding cannot change the result.
    public func nearby(_ q: NearbyQuery) async throws -> [NearbyLocation] {
        guard q.limit > 0, q.radiusMeters > 0 else { return [] }
        if let networks = q.networks, networks.isEmpty { return [] }
        let lat = q.center.latitude
        let lon = q.center.longitude
        let reach = q.radiusMeters * (1 + 1e-6) + 1
        let extra = q.limit + 16
        let found: [PostgresRow]
        if let networks = q.networks {
            found = try await rows(
                """
                SELECT \(unescaped: Self.locationColumns) FROM locations
                WHERE network_id = ANY(\(networks.sorted())) AND ST_DWithin(geog, ST_SetSRID(ST_MakePoint(\(lon), \(lat)), 4326)::geography, \(reach), false)
                ORDER BY geog <-> ST_SetSRID(ST_MakePoint(\(lon), \(lat)), 4326)::geography, id LIMIT \(extra)
                """)
        } else {
            found = try await rows(
                """
                SELECT \(unescaped: Self.locationColumns) FROM locations
                WHERE ST_DWithin(geog, ST_SetSRID(ST_MakePoint(\(lon), \(lat)), 4326)::geography, \(reach), false)
                ORDER BY geog <-> ST_SetSRID(ST_MakePoint(\(lon), \(lat)), 4326)::geography, id LIMIT \(extra)
                """)
        }
        var ranked: [(term: Double, location: Location)] = []
        let limit = Sphere.haversineTerm(meters: q.radiusMeters)
        for row in found {
            let l = try Self.readLocation(row)
            let term = Sphere.haversineTerm(q.center, l.coordinate)
            if term <= limit { ranked.append((term, l)) }
        }
        ranked.sort { $0.term != $1.term ? $0.term < $1.term : $0.location.id < $1.location.id }
        return ranked.prefix(q.limit).map { NearbyLocation(location: $0.location, distanceMeters: Sphere.meters(fromHaversineTerm: $0.term)) }
    }
}
