import LocationStore

/// The statements that write one location row, numbered as `bindLocation`/`bindContent` bind them: ?1 id, ?2…?13 its
/// content (?17 the opening hours, ?18 the position's uncertainty), ?14 geohash, ?15 source import, ?16 time. The import's bulk path and the
/// one-location path run the same text, so a new column is added in one place.
enum LocationRowSQL {
    static let update = """
        UPDATE locations SET network_id = ?2, external_id = ?3, name = ?4, address = ?5, city = ?6, region = ?7,
            postal_code = ?8, country = ?9, lat = ?10, lon = ?11, radius_m = ?12, venue_radius_m = ?13, geohash = ?14,
            source_import_id = ?15, updated_at = ?16, geom = MakePoint(?11, ?10, 4326), opening_hours = ?17,
            uncertainty_m = ?18, change_version = \(SQLiteSchema.currentChangeVersion)
        WHERE id = ?1
        """

    static let insert = """
        INSERT INTO locations (id, network_id, external_id, name, address, city, region, postal_code, country, lat, lon,
            radius_m, venue_radius_m, geohash, source_import_id, created_at, updated_at, geom, opening_hours, uncertainty_m,
            change_version)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?16, MakePoint(?11, ?10, 4326), ?17,
            ?18, \(SQLiteSchema.currentChangeVersion))
        """

    /// A location's ROWID, and 1 when its content equals ?2…?13, ?17 and ?18 (the bulk path's test for an unchanged row).
    static let probe = """
        SELECT ROWID, network_id IS ?2 AND external_id IS ?3 AND name IS ?4 AND address IS ?5 AND city IS ?6 AND region IS ?7
            AND postal_code IS ?8 AND country IS ?9 AND lat = ?10 AND lon = ?11 AND radius_m IS ?12 AND venue_radius_m IS ?13
            AND opening_hours IS ?17 AND uncertainty_m IS ?18
        FROM locations WHERE id = ?1
        """
}
