import Foundation
import Geo
import LocationStore

/// What a row means, decided the same way for every store: where it stands (the file's point or the geocoder's),
/// its id, and the messages of its warnings. Reads nothing from a store; what it needs from geocoding the pass before
/// the import found (`GeocodePass.Outcome.answers`).
package struct RowInterpreter {
    let options: ImportOptions
    let geocoded: GeocodePass.Outcome?

    package init(options: ImportOptions, geocoded: GeocodePass.Outcome?) {
        self.options = options
        self.geocoded = geocoded
    }

    /// The parser's verdict on the row as a whole: its rejection (logged; false) or its warnings (held until the row is
    /// accepted; true).
    package static func screen(_ row: ParsedRow, ledger: inout FileLedger) -> Bool {
        if let rejection = row.rejection {
            ledger.reject(row.line, rejection.code, rejection.message)
            return false
        }
        for warning in row.warnings { ledger.warn(row.line, warning.code, warning.message) }
        return true
    }

    /// The row's point: the file's, or the geocoder's when the import geocodes this row and an answer placed it.
    /// Nil when the row is rejected (logged in `ledger`); the provenance is set for a geocoded point.
    package func place(_ row: ParsedRow, importId: Int64?, ledger: inout FileLedger) -> (Coordinate, GeocodeProvenance?)? {
        let line = row.line
        if row.hasFileCoordinates { ledger.rowsWithCoordinates += 1 }
        if let c = row.coarse { ledger.coarse.count(c) }
        let wantsGeocode = options.geocoding.map { row.wantsGeocode($0.mode) } ?? false
        var fileCoordinate: Coordinate?
        switch row.verdict {
        case .rejected(let code, let message):
            guard wantsGeocode else {
                ledger.reject(line, code, message, externalId: row.id)
                return nil
            }
        case .accepted(let c, let warning):
            fileCoordinate = c
            if let (code, message) = warning { ledger.warn(line, code, message) }
        }
        guard wantsGeocode, let query = row.addressQuery, let geocoding = options.geocoding else {
            if let c = row.coarse { ledger.warn(line, .coarseCoordinates, c.message) }
            return fileCoordinate.map { ($0, nil) }
        }
        let key = query.cacheKey
        let answer = geocoded?.answers[key]
        let asked = geocoded?.askedKeys.contains(key) ?? false
        var summary = ledger.geocodeSummary ?? GeocodeSummary(service: geocoding.settings.displayURL, mode: geocoding.mode.rawValue)
        defer { ledger.geocodeSummary = summary }
        summary.rows += 1
        if asked { summary.asked += 1 } else if answer != nil { summary.fromCache += 1 }
        guard let outcome = answer else {
            summary.notAsked += 1
            if let fileCoordinate { return (fileCoordinate, nil) }
            ledger.reject(
                line, .geocodeNotAsked,
                "not geocoded: a dry run asks no geocoder and the cache has no answer for "
                    + "'\(query.oneLine.clipped())'", externalId: row.id)
            return nil
        }
        if case .placed(let a) = outcome, let point = try? Coordinate(latitude: a.lat, longitude: a.lon) {
            summary.placed += 1
            let shift = fileCoordinate.map { Sphere.distance($0, point) }
            if let shift, let original = fileCoordinate, shift > geocoding.farFromOriginalMeters {
                summary.farFromOriginal += 1
                ledger.warn(
                    line, .geocodeFarFromOriginal,
                    "the geocoded point is \(Self.kilometres(shift)) from the file's coordinates "
                        + "(\(original.latitude), \(original.longitude)): one of the two is wrong; kept the geocoded one")
            }
            return (
                point,
                GeocodeProvenance(
                    locationId: "", source: geocoding.settings.displayURL, displayName: a.displayName,
                    placeRank: a.placeRank, importance: a.importance,
                    originalLatitude: fileCoordinate?.latitude, originalLongitude: fileCoordinate?.longitude,
                    shiftMeters: shift, importId: importId)
            )
        }
        switch outcome {
        case .notFound: summary.notFound += 1
        case .area: summary.ambiguous += 1
        case .wrongCountry: summary.wrongCountry += 1
        default: summary.failed += 1
        }
        let code = outcome.reasonCode ?? .geocodeFailed
        let message = "\(outcome.message) ('\(query.oneLine.clipped())')"
        // A row with coordinates of its own keeps them; one without has nothing else to go on.
        guard let fileCoordinate else {
            ledger.reject(line, code, message, externalId: row.id)
            return nil
        }
        if let c = row.coarse { ledger.warn(line, .coarseCoordinates, c.message) }
        ledger.warn(line, code, message + "; kept the file's coordinates")
        return (fileCoordinate, nil)
    }

    /// The location a row stands for, and whether its id came from the file (else it was derived, so a repeat is a
    /// repeated row rather than a repeated id).
    package func location(
        _ row: ParsedRow, networkId: String, name: String, coordinate: Coordinate, importId: Int64?,
        ledger: inout FileLedger
    ) -> (location: Location, idFromFile: Bool) {
        if let before = row.zipBeforeRestoring, let restored = row.postalCode {
            ledger.warn(row.line, .zipLeadingZero, "ZIP '\(before)' lost its leading zeros; stored as \(restored)")
        }
        let externalId =
            row.id ?? row.derivedId
            ?? (row.hasFileCoordinates
                ? StableId.derive(address: row.address, latitude: coordinate.latitude, longitude: coordinate.longitude)
                : StableId.derive(address: row.address, city: row.city, postalCode: row.postalCode))
        let uncertainty = Self.uncertainty(of: row, at: coordinate, geocoded: geocoded)
        let location = Location(
            networkId: networkId, externalId: externalId, name: name, address: row.address, city: row.city,
            region: row.region, postalCode: row.postalCode, country: row.country, coordinate: coordinate,
            radiusMeters: Self.meters(row.radius, column: "radius_m", line: row.line, ledger: &ledger),
            venueRadiusMeters: Self.meters(row.venueRadius, column: "venue_radius_m", line: row.line, ledger: &ledger),
            sourceImportId: importId, openingHours: row.openingHours, positionUncertaintyMeters: uncertainty)
        if let hours = row.openingHours, ledger.firstSight(ofOpeningHours: hours), OpeningHours(hours) == nil {
            ledger.warn(
                row.line, .unparsedOpeningHours,
                "opening_hours '\(hours.clipped(80))' uses more than weekdays, times, 24/7, off and comments (months, dates, "
                    + "open ends?): kept, and the store is taken to be open; warned on its first row only")
        }
        return (location, row.id != nil)
    }

    /// How far the row's point may lie from its place, when that is more than a geofence can ignore: a coarse point the
    /// file gave (its rounding), or a geocoder's point (half its answer's bounding box: a street's point stands
    /// anywhere along it). Its region is never smaller than that.
    static func uncertainty(of row: ParsedRow, at coordinate: Coordinate, geocoded: GeocodePass.Outcome?) -> Double? {
        if case .accepted(let filePoint, _) = row.verdict, filePoint == coordinate { return row.coarse?.errorMeters }
        guard let key = row.addressQuery?.cacheKey, case .placed(let answer) = geocoded?.answers[key] else { return nil }
        return answer.uncertaintyMeters
    }

    /// A radius column's value in metres: a plain decimal in (0, 50000], the rule of a network's default radius. Anything
    /// else is warned `invalid_radius` and read as empty (the row keeps its place; the policy sizes its region).
    static func meters(_ text: String?, column: String, line: Int, ledger: inout FileLedger) -> Double? {
        guard let text, !text.isEmpty else { return nil }
        if let value = DecimalNumber.parse(text), value > 0, value <= 50_000 { return value }
        ledger.warn(line, .invalidRadius, "\(column) '\(text.clipped(40))' is not a number of metres in (0, 50000]; ignored")
        return nil
    }

    /// Rejects a row whose location the import already listed.
    package static func rejectRepeat(_ location: Location, idFromFile: Bool, firstLine: Int, line: Int, ledger: inout FileLedger) {
        if idFromFile {
            ledger.reject(
                line, .duplicateId, "network \(location.networkId) id '\(location.externalId)' already on line \(firstLine)",
                externalId: location.externalId)
        } else {
            ledger.reject(line, .duplicateRow, "repeats line \(firstLine) (same address and coordinates)", externalId: location.externalId)
        }
    }

    /// The one near-duplicate warning of a row: about the nearest row listed before it, and how many more there are
    /// (`searchedAll` false: the search stopped at its limit, so at least that many).
    static func nearDuplicateMessage(
        _ neighbours: [ListedNeighbour], radius: Double, searchedAll: Bool, geocoded: Bool, roundedAlike: CoarseCoordinates?
    ) -> String {
        let sorted = neighbours.sorted { ($0.distanceMeters, $0.line) < ($1.distanceMeters, $1.line) }
        let nearest = sorted[0]
        let first = nearDuplicateMessage(
            distance: nearest.distanceMeters, otherLine: nearest.line, otherId: nearest.id, geocoded: geocoded, roundedAlike: roundedAlike)
        guard sorted.count > 1 else { return first }
        let lines = sorted.dropFirst().prefix(3).map { String($0.line) }.joined(separator: ", ")
        let more = sorted.count - 1
        let count = searchedAll ? "\(more) more" : "\(more) or more"
        let radiusText = radius == radius.rounded() ? String(Int(radius)) : String(radius)
        return first + "; and \(count) rows of this import within \(radiusText) m (lines \(lines)\(more > 3 ? ", …" : ""))"
    }

    /// The message about one near duplicate: rows equal only because the file rounds its coordinates, or because the
    /// geocoder gave them one address point, are not known to be one place, and the message says so.
    static func nearDuplicateMessage(
        distance: Double, otherLine: Int, otherId: String, geocoded: Bool,
        roundedAlike: CoarseCoordinates?
    ) -> String {
        if geocoded, distance < 1 {
            return "geocoded to the same point as line \(otherLine) (\(otherId)): the geocoder gave both one address point, so they "
                + "may be two places in one building"
        }
        if let roundedAlike, distance < 1 {
            return "same rounded coordinates as line \(otherLine) (\(otherId)): both written to \(roundedAlike.decimals) decimals "
                + "(±\(Int(roundedAlike.errorMeters.rounded())) m), so they may be different places"
        }
        return "\(Int(distance.rounded())) m from line \(otherLine) of the same network (\(otherId))"
    }

    static func kilometres(_ metres: Double) -> String {
        metres >= 10_000 ? "\(Int((metres / 1000).rounded())) km" : String(format: "%.1f km", metres / 1000)
    }
}
