import Gazetteer
import Geo

/// Swapped and sign-flipped coordinate pairs in rows with no US state or country to hold them against
/// (`CoordinateCheck` handles those). A pair is refused when its reading as given is alone — no other row of the file
/// within a cell of it — while another reading of it (latitude and longitude swapped, or either sign flipped):
///
/// 1. lies among the file's other rows (two or more in the cells around it) while the reading as given is no town
///    (under `settledDensity` people per km²), or, failing that,
/// 2. is a place people live (`Habitation`) while the reading as given is not: at sea, or in Antarctica, far from
///    every populated place.
///
/// So a lone store far from the rest of its chain is kept unless one of its other readings lands in the chain's
/// midst or it stands nowhere at all; a harbour or a small island is near a populated place, so rule 2 never takes
/// it. With `--fix-coordinates` the row is corrected (and warned) instead. The check costs nine dictionary lookups
/// for a row near others, which is nearly every row of a chain.
struct PlacementCheck {
    /// Cells of 1° × 1°: a store's neighbours in a chain are nearly always within one (≈ 111 km).
    private static let cellDegrees = 1.0
    /// Rows in the cells around an alternative reading for it to be "among the file's rows".
    static let amongRows = 2
    /// People per km² (`PopulatedPlaces`) from which a reading as given is a town, never second-guessed by rule 1: the
    /// rows arrive in file order, so a chain's first store in Madrid may come while its only neighbours so far are on
    /// Menorca, where the sign-flipped reading lands (seen on a 1M-store world file: 56 real stores refused so).
    static let settledDensity = 300.0

    private var rowsByCell: [Int32: Int] = [:]
    let fixCoordinates: Bool

    init(fixCoordinates: Bool) { self.fixCoordinates = fixCoordinates }

    mutating func add(_ c: Coordinate) { rowsByCell[Self.cell(c.latitude, c.longitude), default: 0] += 1 }

    /// The verdict on an accepted point without a reference; `counted` when the point is in the tally already.
    func judge(_ c: Coordinate, counted: Bool) -> CoordinateVerdict? {
        let (lat, lon) = (c.latitude, c.longitude)
        guard rows(around: lat, lon) - (counted ? 1 : 0) == 0 else { return nil }
        let readings = alternatives(lat, lon)
        if let (code, alt) = readings.first(where: { rows(around: $0.1.latitude, $0.1.longitude) >= Self.amongRows }),
            PopulatedPlaces.shared.density(latitude: lat, longitude: lon) < Self.settledDensity
        {
            let n = rows(around: alt.latitude, alt.longitude)
            return refuse(
                code, c, alt, "(\(lat), \(lon)) is far from every other row of the file but (\(alt.latitude), \(alt.longitude)) is among \(n) of them"
            )
        }
        guard !Habitation.isInhabited(latitude: lat, longitude: lon),
            let (code, alt) = readings.first(where: { Habitation.isInhabited(latitude: $0.1.latitude, longitude: $0.1.longitude) })
        else { return nil }
        return refuse(
            code, c, alt,
            "(\(lat), \(lon)) is at sea or in Antarctica, far from any populated place, but (\(alt.latitude), \(alt.longitude)) is a place people live"
        )
    }

    /// The other readings of a pair, each with the reason code it would mean; none that is the same place.
    private func alternatives(_ lat: Double, _ lon: Double) -> [(ReasonCode, Coordinate)] {
        var out: [(ReasonCode, Coordinate)] = []
        if abs(lon) <= 90, let c = try? Coordinate(latitude: lon, longitude: lat) { out.append((.swappedCoordinates, c)) }
        if let c = try? Coordinate(latitude: lat, longitude: -lon) { out.append((.signFlippedLongitude, c)) }
        if let c = try? Coordinate(latitude: -lat, longitude: lon) { out.append((.signFlippedLatitude, c)) }
        // A reading in the cells around the given one is no other place at this scale.
        let (row, column) = Self.indices(lat, lon)
        return out.filter {
            let (r, k) = Self.indices($0.1.latitude, $0.1.longitude)
            let columns = abs(k - column)
            return abs(r - row) > 1 || min(columns, 360 - columns) > 1
        }
    }

    private func refuse(_ code: ReasonCode, _ given: Coordinate, _ alt: Coordinate, _ why: String) -> CoordinateVerdict {
        let meaning =
            switch code {
            case .swappedCoordinates: "latitude and longitude look swapped"
            case .signFlippedLatitude: "the latitude's sign looks lost"
            default: "the longitude's sign looks lost"
            }
        if fixCoordinates { return .accepted(alt, warning: (code, "\(why); \(meaning); corrected")) }
        return .rejected(code, "\(why); \(meaning) (--fix-coordinates corrects such rows)")
    }

    /// Rows in the 3 × 3 cells around a point (longitude wrapping at the antimeridian).
    private func rows(around lat: Double, _ lon: Double) -> Int {
        guard !rowsByCell.isEmpty else { return 0 }
        var total = 0
        let (row, column) = Self.indices(lat, lon)
        for r in (row - 1)...(row + 1) where r >= 0 && r < 180 {
            for k in (column - 1)...(column + 1) { total += rowsByCell[Int32(r * 360 + (k + 360) % 360)] ?? 0 }
        }
        return total
    }

    private static func indices(_ lat: Double, _ lon: Double) -> (Int, Int) {
        (min(179, Int((lat + 90) / cellDegrees)), min(359, Int((lon + 180) / cellDegrees)))
    }

    private static func cell(_ lat: Double, _ lon: Double) -> Int32 {
        let (r, k) = indices(lat, lon)
        return Int32(r * 360 + k)
    }
}
