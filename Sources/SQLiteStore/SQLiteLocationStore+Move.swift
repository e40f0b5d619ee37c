import LocationStore

extension SQLiteLocationStore {
    /// A few set statements over the network's rows: a row keeps its ROWID, so its geometry's R*Tree entry and every
    /// index not on the changed columns stay as they are; `locations_renamed_leave_tombstones` leaves the old ids'
    /// tombstones and `locations_leave_tombstones` the dropped ones'.
    ///
    /// The per-location inputs go into a temporary table first, before anything is changed: each statement in a
    /// nested transaction ends by cutting the in-memory statement journal back to where it began, a walk over the
    /// journal, so one statement per location after a large change costs the square of the change (a 25k merge spent
    /// 1 s of its 1.5 s there).
    public func moveLocations(from: String, into: String, dropping: [String], renaming: [String: String]) throws -> Int {
        try writeTransaction { () throws(StoreError) -> Int in
            temporaryDatabaseOpened = true
            try db.execute(
                """
                CREATE TEMP TABLE IF NOT EXISTS oncue_move (old_id TEXT PRIMARY KEY, external_id TEXT) WITHOUT ROWID;
                DELETE FROM temp.oncue_move;
                """)
            defer { try? db.execute("DELETE FROM temp.oncue_move") }
            // A NULL external id marks a location that goes.
            let plan = try db.statement("INSERT OR REPLACE INTO temp.oncue_move (old_id, external_id) VALUES (?1, ?2)")
            for (id, external) in renaming.map({ ($0.key, Optional($0.value)) }) + dropping.map({ ($0, nil) }) {
                plan.reset()
                plan.bind(1, id)
                plan.bind(2, external)
                _ = try plan.step()
            }
            try db.noteChange()
            let dropped = "SELECT old_id FROM temp.oncue_move WHERE external_id IS NULL"
            let dropGeocoded = try db.statement(
                "DELETE FROM geocoded_locations WHERE location_id IN (\(dropped)) AND location_id IN (SELECT id FROM locations WHERE network_id = ?1)"
            )
            dropGeocoded.bind(1, from)
            _ = try dropGeocoded.step()
            let drop = try db.statement("DELETE FROM locations WHERE network_id = ?1 AND id IN (\(dropped))")
            drop.bind(1, from)
            _ = try drop.step()
            let newExternal = "coalesce((SELECT m.external_id FROM temp.oncue_move m WHERE m.old_id = locations.id), external_id)"
            let geocoded = try db.statement(
                """
                UPDATE geocoded_locations SET location_id = (
                    SELECT 'loc_' || ?2 || '_' || \(newExternal) FROM locations WHERE locations.id = geocoded_locations.location_id)
                WHERE location_id IN (SELECT id FROM locations WHERE network_id = ?1)
                """)
            geocoded.bind(1, from)
            geocoded.bind(2, into)
            _ = try geocoded.step()
            let move = try db.statement(
                """
                UPDATE locations SET network_id = ?2, external_id = \(newExternal),
                    id = 'loc_' || ?2 || '_' || \(newExternal), updated_at = ?3,
                    change_version = \(SQLiteSchema.currentChangeVersion)
                WHERE network_id = ?1
                """)
            move.bind(1, from)
            move.bind(2, into)
            move.bind(3, Self.timestamp())
            _ = try move.step()
            return db.changes
        }
    }
}
