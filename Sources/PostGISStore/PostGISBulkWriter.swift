import Foundation
import Geo
import LocationStore
import Logging
import NIOCore
import PostgresNIO

/// The writes of a bulk import that stream rows to the server: networks first, then rows by `COPY`, then their issues.
///
/// A value (the store's connection, logger and URL) rather than the store, so that an import can hand a batch to a task
/// of its own and read the next batch while the server stores this one. The connection runs one request at a time in
/// the order given; the importer keeps at most one batch in flight and waits for it before it uses the store itself.
public struct PostGISBulkWriter: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    let url: PostgresURL

    static let stageColumns = [
        "file_no", "line", "id", "network_id", "external_id", "name", "address", "city", "region", "postal_code", "country",
        "lat", "lon", "geohash", "radius_m", "venue_radius_m", "source_import_id", "geocoded",
        "warned", "prov_source", "prov_display_name", "prov_place_rank", "prov_importance", "prov_original_lat", "prov_original_lon",
        "prov_shift_m", "opening_hours", "uncertainty_m",
    ]

    static let locationColumns = [
        "id", "network_id", "external_id", "name", "address", "city", "region", "postal_code", "country", "lat", "lon", "geom",
        "geohash", "radius_m", "venue_radius_m", "source_import_id", "created_at", "updated_at", "opening_hours", "change_version",
        "uncertainty_m",
    ]

    func query(_ query: PostgresQuery, file: String = #fileID, line: Int = #line) async throws {
        _ = try await PostGISLocationStore.run(query, on: connection, logger: logger, url: url, file: file, line: line)
    }

    /// Inserts a network or brings its settings up to date; a network already so is not written (its `updated_at` stays).
    /// A network whose name, size class or default radius changes marks all its locations changed at `changeVersion`
    /// (`Network.servesDifferently`): the index serves each of them differently now.
    public func upsertNetwork(_ n: Network, changeVersion: Int64) async throws {
        let (lower, upper) = PostGISSchema.networkIdRange(n.id)
        try await query(
            """
            UPDATE locations SET change_version = \(changeVersion)
            WHERE id >= \(lower) AND id < \(upper) AND network_id = \(n.id) AND EXISTS (
                SELECT 1 FROM networks o WHERE o.id = \(n.id)
                    AND (o.name, o.is_large_area, o.default_radius_m) IS DISTINCT FROM (\(n.name), \(n.isLargeArea), \(n.defaultRadiusMeters)))
            """)
        try await query(
            """
            INSERT INTO networks (id, name, category, is_large_area, default_radius_m, wikidata, created_at, updated_at)
            VALUES (\(n.id), \(n.name), \(n.category), \(n.isLargeArea), \(n.defaultRadiusMeters), \(n.wikidata), now(), now())
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category,
                is_large_area = EXCLUDED.is_large_area, default_radius_m = EXCLUDED.default_radius_m,
                wikidata = EXCLUDED.wikidata, updated_at = now()
            WHERE (networks.name, networks.category, networks.is_large_area, networks.default_radius_m, networks.wikidata)
                IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.category, EXCLUDED.is_large_area, EXCLUDED.default_radius_m,
                    EXCLUDED.wikidata)
            """)
    }

    /// Writes the networks and aliases an import created or changed, before its locations.
    public func applyNetworkChanges(
        _ networks: [Network], aliases: [(alias: String, networkId: String)], changeVersion: Int64
    ) async throws {
        for n in networks { try await upsertNetwork(n, changeVersion: changeVersion) }
        guard !aliases.isEmpty else { return }
        try await query(
            """
            INSERT INTO network_aliases (alias_key, alias, network_id)
            SELECT k, a, n FROM unnest(\(aliases.map { Network.aliasKey($0.alias) }), \(aliases.map(\.alias)), \(aliases.map(\.networkId)))
                AS t(k, a, n)
            ON CONFLICT (alias_key) DO UPDATE SET alias = EXCLUDED.alias, network_id = EXCLUDED.network_id
            """)
    }

    /// Appends issues in batches of one statement each (unnest of arrays), in the order given.
    public func appendImportIssues(_ issues: [ImportIssue], importId: Int64) async throws {
        for start in stride(from: 0, to: issues.count, by: 5_000) {
            let chunk = issues[start..<min(issues.count, start + 5_000)]
            try await query(
                """
                INSERT INTO import_issues (import_id, line, severity, code, message, external_id)
                SELECT \(importId), l, s, c, m, nullif(e, '') FROM unnest(\(chunk.map { Int64($0.line) }), \(chunk.map(\.severity.rawValue)),
                    \(chunk.map(\.code)), \(chunk.map(\.message)), \(chunk.map { $0.externalId ?? "" })) AS t(l, s, c, m, e)
                """)
        }
    }

    /// Rows for the staging table (`PostGISLocationStore.beginStaging`), encoded for `copy`. Needs no connection: an
    /// import encodes a batch while the server stores the one before.
    public static func encodeStaged(_ rows: [ImportRow]) -> CopyBatch {
        var out = CopyTextEncoder(capacity: rows.count * 220)
        for r in rows {
            let l = r.location
            let p = r.provenance
            out.field(r.fileNumber)
            out.field(r.line)
            out.location(l, timestamp: nil)
            out.field(p == nil ? "f" : "t")
            out.field(r.warned ? "t" : "f")
            out.field(p?.source)
            out.field(p?.displayName)
            out.field(p?.placeRank)
            out.field(p?.importance)
            out.field(p?.originalLatitude)
            out.field(p?.originalLongitude)
            out.field(p?.shiftMeters)
            out.field(l.openingHours)
            out.field(l.positionUncertaintyMeters)
            out.endRow()
        }
        return CopyBatch(table: "oncue_stage", columns: stageColumns, rows: rows.count, bytes: out.bytes)
    }

    /// Rows straight for `locations` (the point as hex EWKB), encoded for `copy`: for rows of networks that had no
    /// locations when the import began, which cannot conflict with a stored row.
    public static func encodeLocations(_ rows: [ImportRow], timestamp: String, changeVersion: Int64) -> CopyBatch {
        var out = CopyTextEncoder(capacity: rows.count * 240)
        for r in rows {
            out.location(r.location, timestamp: timestamp)
            out.field(r.location.openingHours)
            out.field(changeVersion)
            out.field(r.location.positionUncertaintyMeters)
            out.endRow()
        }
        return CopyBatch(table: "locations", columns: locationColumns, rows: rows.count, bytes: out.bytes)
    }

    /// Sends an encoded batch with `COPY … FROM STDIN`.
    public func copy(_ batch: CopyBatch) async throws {
        guard batch.rows > 0 else { return }
        let buffer = ByteBuffer(bytes: batch.bytes)
        try PostGISLocationStore.refuseIfClosed(connection, url: url)
        do {
            try await connection.copyFrom(table: batch.table, columns: batch.columns, logger: logger) { writer in
                try await writer.write(buffer)
            }
        } catch let error as PSQLError {
            throw await PostGISLocationStore.failure(error, on: connection, url: url)
        }
    }
}

/// Rows encoded in `COPY`'s text format for one table.
public struct CopyBatch: Sendable {
    let table: String
    let columns: [String]
    public let rows: Int
    let bytes: [UInt8]
}

/// PostgreSQL's `COPY` text format written straight into one byte array: tab-separated fields, `\N` for NULL,
/// backslash escapes for the separators.
struct CopyTextEncoder {
    private(set) var bytes: [UInt8] = []
    private var atRowStart = true

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    private mutating func separate() {
        if !atRowStart { bytes.append(UInt8(ascii: "\t")) }
        atRowStart = false
    }

    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        atRowStart = true
    }

    mutating func null() {
        separate()
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "N"))
    }

    /// Most texts need no escape and go in whole; the rest byte by byte.
    mutating func field(_ text: String?) {
        guard var text else { return null() }
        separate()
        text.withUTF8 { utf8 in
            if !utf8.contains(where: Self.needsEscape) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\\"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "\t"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(UInt8(ascii: "t"))
                case UInt8(ascii: "\n"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(UInt8(ascii: "r"))
                case 0: continue  // PostgreSQL text cannot hold NUL
                default: bytes.append(byte)
                }
            }
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0
    }

    mutating func field(_ value: Int?) {
        guard let value else { return null() }
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func field(_ value: Int64?) { field(value.map { Int($0) }) }

    /// Swift's shortest representation that reads back as the same double, which PostgreSQL's `float8in` does.
    mutating func field(_ value: Double?) {
        guard let value else { return null() }
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A location's columns in the order of `PostGISBulkWriter.locationColumns` (with the point and timestamps)
    /// or, without a timestamp, of the staging table's (no point: the upsert makes it from lat and lon).
    mutating func location(_ l: Location, timestamp: String?) {
        field(l.id)
        field(l.networkId)
        field(l.externalId)
        field(l.name)
        field(l.address)
        field(l.city)
        field(l.region)
        field(l.postalCode)
        field(l.country)
        field(l.coordinate.latitude)
        field(l.coordinate.longitude)
        if timestamp != nil { pointEWKB(l.coordinate) }
        field(Geohash(l.coordinate, precision: 12).string)
        field(l.radiusMeters)
        field(l.venueRadiusMeters)
        field(l.sourceImportId)
        if let timestamp {
            field(timestamp)
            field(timestamp)
        }
    }

    /// A point as PostGIS's hex EWKB with SRID 4326 (little-endian): what `COPY` takes for a geometry column.
    mutating func pointEWKB(_ c: Coordinate) {
        separate()
        bytes.append(contentsOf: Self.ewkbPointPrefix)
        hex(c.longitude.bitPattern.littleEndian)
        hex(c.latitude.bitPattern.littleEndian)
    }

    /// Byte order (little), type (point with SRID), SRID 4326, in hex.
    private static let ewkbPointPrefix = Array("0101000020E6100000".utf8)
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private mutating func hex(_ littleEndian: UInt64) {
        withUnsafeBytes(of: littleEndian) { raw in
            for b in raw {
                bytes.append(Self.hexDigits[Int(b >> 4)])
                bytes.append(Self.hexDigits[Int(b & 0x0F)])
            }
        }
    }
}
