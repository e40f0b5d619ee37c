import Geo
import LocationStore

extension SQLiteSchema {
    /// Version 3: location ids that never depend on a name (see `StableId`). Every location whose id a legacy rule
    /// derived gets today's id, in place (its row, geometry and import provenance stay; the import log keeps the ids
    /// it logged); of the locations that then share an id — the doubles a network rename and a re-import made — the
    /// one written last stays.
    static func rekeyDerivedIds(_ db: SQLiteConnection) throws(StoreError) {
        let select = try db.statement(
            """
            SELECT l.ROWID, l.network_id, l.external_id, l.name, l.address, l.city, l.postal_code, l.lat, l.lon,
                   g.original_lat, g.original_lon, l.source_import_id, l.id
            FROM locations l LEFT JOIN geocoded_locations g ON g.location_id = l.id
            WHERE length(l.external_id) = 17 AND l.external_id GLOB 'h[0-9a-f]*'
            """)
        var candidates: [LegacyKeyedLocation] = []
        var ids: [Int64: String] = [:]
        while try select.step() {
            let original =
                select.optionalDouble(9).flatMap { lat in select.optionalDouble(10).map { Coordinate(uncheckedLatitude: lat, longitude: $0) } }
            candidates.append(
                LegacyKeyedLocation(
                    rowKey: select.int64(0), networkId: select.text(1), externalId: select.text(2), name: select.text(3),
                    address: select.optionalText(4), city: select.optionalText(5), postalCode: select.optionalText(6),
                    latitude: select.double(7), longitude: select.double(8), original: original,
                    sourceImportId: select.optionalInt64(11)))
            ids[select.int64(0)] = select.text(12)
        }
        let plan = RekeyPlan(candidates)
        let dropGeocoded = try db.statement("DELETE FROM geocoded_locations WHERE location_id = ?1")
        let drop = try db.statement("DELETE FROM locations WHERE ROWID = ?1")
        for key in plan.drops {
            dropGeocoded.reset()
            dropGeocoded.bind(1, ids[key])
            _ = try dropGeocoded.step()
            drop.reset()
            drop.bind(1, key)
            _ = try drop.step()
        }
        let renameGeocoded = try db.statement("UPDATE geocoded_locations SET location_id = ?2 WHERE location_id = ?1")
        let rename = try db.statement("UPDATE locations SET external_id = ?2, id = ?3 WHERE ROWID = ?1")
        for r in plan.renames {
            renameGeocoded.reset()
            renameGeocoded.bind(1, ids[r.rowKey])
            renameGeocoded.bind(2, r.id)
            _ = try renameGeocoded.step()
            rename.reset()
            rename.bind(1, r.rowKey)
            rename.bind(2, r.externalId)
            rename.bind(3, r.id)
            _ = try rename.step()
        }
    }
}
