import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    /// The `limit` nearest within the radius, ties by id, by OnCue's own haversine distance: the answer equals the
    /// SQLite store's.
    ///
    /// The `geometry` index orders by planar distance in degrees, which is not the distance on the ground, so its order
    /// only finds candidates: the `limit` + 16 nearest by it within the radius's box. If they do not fill that, they are
    /// everything in the box. Otherwise, when `limit` of them lie within the radius, the `limit`-th nearest of them on
    /// the ground, d, bounds the answer: every location nearer than d is in the box of radius d, which is read whole and
    /// ranked here (`NearbyBox`); when fewer do (the box's corners hold many beyond the radius, as near the antimeridian
    /// or the poles), the radius's whole box is read.
    public func nearby(_ q: NearbyQuery) async throws -> [NearbyLocation] {
        guard q.limit > 0, q.radiusMeters > 0 else { return [] }
        if let networks = q.networks, networks.isEmpty { return [] }
        let extra = q.limit + 16
        let candidates = try await boxed(q, meters: q.radiusMeters, ordered: extra)
        var ranked = rank(candidates, q, within: q.radiusMeters)
        if candidates.count >= extra {
            let bound = ranked.count >= q.limit ? Sphere.meters(fromHaversineTerm: ranked[q.limit - 1].term) * (1 + 1e-9) + 1e-6 : q.radiusMeters
            ranked = rank(try await boxed(q, meters: min(q.radiusMeters, bound), ordered: nil), q, within: q.radiusMeters)
        }
        return ranked.prefix(q.limit).map { NearbyLocation(location: $0.location, distanceMeters: Sphere.meters(fromHaversineTerm: $0.term)) }
    }

    /// The locations of the query's networks in the box around its centre of `meters`; with `ordered`, only that many,
    /// nearest first by the index's planar order.
    private func boxed(_ q: NearbyQuery, meters: Double, ordered limit: Int?) async throws -> [Location] {
        let lat = q.center.latitude
        let lon = q.center.longitude
        let inBox = NearbyBox.predicate(column: "geom", around: q.center, meters: meters)
        let order = limit.map { "ORDER BY geom <-> ST_SetSRID(ST_MakePoint(\(lon), \(lat)), 4326), id LIMIT \($0)" } ?? ""
        let found: [PostgresRow]
        if let networks = q.networks {
            found = try await rows(
                """
                SELECT \(unescaped: Self.locationColumns) FROM locations
                WHERE network_id = ANY(\(networks.sorted())) AND \(unescaped: inBox) \(unescaped: order)
                """)
        } else {
            found = try await rows("SELECT \(unescaped: Self.locationColumns) FROM locations WHERE \(unescaped: inBox) \(unescaped: order)")
        }
        return try found.map(Self.readLocation)
    }

    /// Those within `meters` of the centre, nearest first, ties by id, with their haversine terms.
    private func rank(_ locations: [Location], _ q: NearbyQuery, within meters: Double) -> [(term: Double, location: Location)] {
        let limit = Sphere.haversineTerm(meters: meters)
        var ranked: [(term: Double, location: Location)] = []
        for l in locations {
            let term = Sphere.haversineTerm(q.center, l.coordinate)
            if term <= limit { ranked.append((term, l)) }
        }
        ranked.sort { $0.term != $1.term ? $0.term < $1.term : $0.location.id < $1.location.id }
        return ranked
    }
}
