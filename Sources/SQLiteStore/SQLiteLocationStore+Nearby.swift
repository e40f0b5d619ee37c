import Geo
import LocationStore

extension SQLiteLocationStore {
    /// Nearest-first search through the geohash B-tree index.
    ///
    /// Scans the cells covering a circle of growing radius (×3 from 2 km, up to the query radius)
    /// until `limit` locations lie inside it: the first `limit` inside a circle are the nearest overall.
    /// Each scan reads only the covering index (geohash, lat, lon); full rows are fetched for the winners.
    public func nearby(_ query: NearbyQuery) throws(StoreError) -> [NearbyLocation] {
        guard query.limit > 0, query.radiusMeters > 0 else { return [] }
        if let networks = query.networks, networks.isEmpty { return [] }
        var radius = min(query.radiusMeters, 2_000)
        while true {
            let found = try candidates(query, radius: radius)
            if found.count >= query.limit || radius >= query.radiusMeters {
                return try finish(found, query: query)
            }
            radius = min(query.radiusMeters, radius * 3)
        }
    }

    private struct Candidate {
        var term: Double
        var rowid: Int64
    }

    /// Every location within `radius` (as haversine terms), filtered by network.
    private func candidates(_ query: NearbyQuery, radius: Double) throws(StoreError) -> [Candidate] {
        let cover = GeohashCover(center: query.center, radiusMeters: radius, maxCells: 64)
        let limit = Sphere.haversineTerm(meters: radius)
        let lat0 = query.center.latitude
        let lon0 = query.center.longitude
        var found: [Candidate] = []
        let ranges = cover.stringRanges
        if let networks = query.networks {
            let s = try db.statement(
                """
                SELECT rowid, lat, lon FROM locations INDEXED BY locations_by_network_geohash
                WHERE network_id = ?1 AND geohash >= ?2 AND geohash < ?3
                """)
            for network in networks.sorted() {
                for range in ranges {
                    s.reset()
                    s.bind(1, network)
                    s.bind(2, range.lower)
                    s.bind(3, range.upper)
                    try collect(s, lat0: lat0, lon0: lon0, limit: limit, into: &found)
                }
            }
        } else {
            let s = try db.statement(
                """
                SELECT rowid, lat, lon FROM locations INDEXED BY locations_by_geohash WHERE geohash >= ?1 AND geohash < ?2
                """)
            for range in ranges {
                s.reset()
                s.bind(1, range.lower)
                s.bind(2, range.upper)
                try collect(s, lat0: lat0, lon0: lon0, limit: limit, into: &found)
            }
        }
        return found
    }

    private func collect(_ s: SQLiteStatement, lat0: Double, lon0: Double, limit: Double, into found: inout [Candidate]) throws(StoreError) {
        while try s.step() {
            let term = Sphere.haversineTerm(lat1: lat0, lon1: lon0, lat2: s.double(1), lon2: s.double(2))
            if term <= limit { found.append(Candidate(term: term, rowid: s.int64(0))) }
        }
    }

    /// Takes the `limit` nearest, fetching rows (and ids for tie-breaking) only for them and anything tied with the last.
    private func finish(_ found: [Candidate], query: NearbyQuery) throws(StoreError) -> [NearbyLocation] {
        var sorted = found
        sorted.sort { $0.term < $1.term }
        var cut = min(query.limit, sorted.count)
        if cut > 0 { while cut < sorted.count && sorted[cut].term == sorted[cut - 1].term { cut += 1 } }
        let s = try db.statement("SELECT \(Self.locationColumns) FROM locations WHERE rowid = ?1")
        var result: [(term: Double, location: Location)] = []
        result.reserveCapacity(cut)
        for candidate in sorted.prefix(cut) {
            s.reset()
            s.bind(1, candidate.rowid)
            guard try s.step() else { continue }
            result.append((candidate.term, Self.readLocation(s)))
        }
        result.sort { $0.term != $1.term ? $0.term < $1.term : $0.location.id < $1.location.id }
        return result.prefix(query.limit).map {
            NearbyLocation(location: $0.location, distanceMeters: Sphere.meters(fromHaversineTerm: $0.term))
        }
    }
}
