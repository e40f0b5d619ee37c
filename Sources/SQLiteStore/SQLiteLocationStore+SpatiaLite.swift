import Geo
import LocationStore

/// Nearest-location searches written in SpatiaLite SQL over the spatial index. They are the
/// independent reference the geohash path is tested and timed against, not the serving path.
extension SQLiteLocationStore {
    /// A result of a reference search: id and distance in metres as computed by SpatiaLite.
    public struct ReferenceHit: Sendable, Hashable {
        public var id: String
        public var meters: Double
    }

    /// `ST_Distance(geom, point, useEllipsoid)` over the `SpatialIndex` virtual table restricted to the
    /// circle's bounding box(es), `ORDER BY distance, id LIMIT k`: the idiomatic SpatiaLite query.
    /// With `useEllipsoid` false SpatiaLite computes great-circle distances, whose order equals haversine order.
    public func nearbyViaSpatiaLiteSQL(_ query: NearbyQuery, useEllipsoid: Bool = false) throws(StoreError) -> [ReferenceHit] {
        let bounds = CircleBounds(center: query.center, radiusMeters: query.radiusMeters)
        var hits: [ReferenceHit] = []
        let s = try db.statement(
            """
            SELECT l.id, ST_Distance(l.geom, MakePoint(?1, ?2, 4326), ?7) AS d, l.network_id FROM locations AS l
            WHERE l.ROWID IN (SELECT ROWID FROM SpatialIndex WHERE f_table_name = 'locations' AND f_geometry_column = 'geom'
                              AND search_frame = BuildMbr(?3, ?4, ?5, ?6, 4326))
            ORDER BY d, l.id
            """)
        for box in bounds.boxes {
            s.reset()
            s.bind(1, query.center.longitude)
            s.bind(2, query.center.latitude)
            s.bind(3, box.minLongitude)
            s.bind(4, box.minLatitude)
            s.bind(5, box.maxLongitude)
            s.bind(6, box.maxLatitude)
            s.bind(7, useEllipsoid ? 1 : 0)
            while try s.step() {
                if let networks = query.networks, !networks.contains(s.text(2)) { continue }
                hits.append(ReferenceHit(id: s.text(0), meters: s.double(1)))
            }
        }
        hits.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.id < $1.id }
        return hits
    }

    /// The anchor kit's fastest SQLite form (`sqlite-hav-expand`): the R*Tree `idx_locations_geom`
    /// queried directly with a growing bounding box (2, 6, 18, 50 km …), haversine computed on the rows.
    public func nearbyViaRTree(_ query: NearbyQuery) throws(StoreError) -> [ReferenceHit] {
        var radius = min(query.radiusMeters, 2_000)
        while true {
            let bounds = CircleBounds(center: query.center, radiusMeters: radius)
            let limit = Sphere.haversineTerm(meters: radius)
            var found: [(term: Double, id: String)] = []
            for box in bounds.boxes {
                let s = try rtreeRows("l.id, l.lat, l.lon, l.network_id", in: box)
                while try s.step() {
                    if let networks = query.networks, !networks.contains(s.text(3)) { continue }
                    let term = Sphere.haversineTerm(
                        lat1: query.center.latitude, lon1: query.center.longitude,
                        lat2: s.double(1), lon2: s.double(2))
                    if term <= limit { found.append((term, s.text(0))) }
                }
            }
            if found.count >= query.limit || radius >= query.radiusMeters {
                found.sort { $0.term != $1.term ? $0.term < $1.term : $0.id < $1.id }
                return found.prefix(query.limit).map { ReferenceHit(id: $0.id, meters: Sphere.meters(fromHaversineTerm: $0.term)) }
            }
            radius = min(query.radiusMeters, radius * 3)
        }
    }

    /// The rows whose point's R*Tree entry meets `box`, with `columns` of `locations l`; a statement to step. R*Tree
    /// boxes are float32: the box is widened by more than a float32 ulp so no boundary point is lost.
    func rtreeRows(_ columns: String, in box: GeoBox) throws(StoreError) -> SQLiteStatement {
        let s = try db.statement(
            """
            SELECT \(columns) FROM idx_locations_geom AS r JOIN locations AS l ON l.ROWID = r.pkid
            WHERE r.xmin <= ?3 AND r.xmax >= ?1 AND r.ymin <= ?4 AND r.ymax >= ?2
            """)
        s.bind(1, box.minLongitude - 1e-5)
        s.bind(2, box.minLatitude - 1e-5)
        s.bind(3, box.maxLongitude + 1e-5)
        s.bind(4, box.maxLatitude + 1e-5)
        return s
    }
}
