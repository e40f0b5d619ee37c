import Foundation
import Geo
import LocationStore

/// How finely a row's coordinates were written, and what that costs a geofence.
///
/// Directories that round every point to two decimals (±0.5 km) put stores hundreds of metres from where they
/// stand: a 100 m region built on such a point is wrong by more than its own size. A row's decimals are counted from
/// the text as written (`40.7300` has four), except in a long fraction, where a float32 export's `40.70999908` is read
/// from its value (two); a file whose values mostly sit on a coarse grid (`40.710000` padded by a formatter, row after
/// row) is judged by that grid whatever its text (`fileGrid`, from the values).
package enum CoordinatePrecision {
    /// Rows with at most this many decimals in both coordinates are coarse whatever the rest of the file does.
    package static let coarseDecimals = 2
    /// A grid of this many decimals is coarse when most of the file sits on it (±55–78 m at 3 decimals).
    package static let fileGridDecimals = 3
    /// Share of the sampled rows that must sit on a grid for it to be the file's grid.
    package static let fileGridShare = 0.9
    /// Rows sampled before deciding the file's grid (the first batch of the file).
    package static let sampleRows = 1024
    /// Fewer sampled rows than this say nothing about a file-wide grid.
    package static let minimumSample = 20
    /// The file-level diagnosis appears when at least this share of the rows with coordinates is coarse.
    package static let diagnosisShare = 0.2

    /// The fewest decimals (0–3) that write `value` to within about a metre; 4 means four or more.
    package static func decimals(_ value: Double) -> Int {
        var scale = 1.0
        for k in 0..<4 {
            let scaled = value * scale
            // 1e-5° (about a metre) absorbs a float32 export's noise (up to 8e-6° at 180°); a real six-decimal
            // coordinate lands that close to a 0.01° grid point in both axes about once in 250,000 rows.
            if abs(scaled - scaled.rounded()) <= 1e-5 * scale { return k }
            scale *= 10
        }
        return 4
    }

    /// Fractions this long or longer are read from their value: they are where float32 noise shows.
    package static let noisyFractionDigits = 7

    /// The decimals a row's coordinate is judged by: as written (`writtenDecimals`, capped at 4), unless the text
    /// cannot tell (a fraction of `noisyFractionDigits` or more, an exponent), when the value's `decimals` decide.
    package static func rowDecimals(text: String, value: Double) -> Int {
        guard let written = writtenDecimals(text), written < noisyFractionDigits else { return decimals(value) }
        return min(4, written)
    }

    /// The digits after the decimal point (or a decimal comma) of a plain decimal number's text, nil for any other
    /// form (an exponent, a degree sign).
    package static func writtenDecimals(_ text: String) -> Int? {
        var seenSeparator = false
        var fraction = 0
        var digits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if seenSeparator { fraction += 1 }
            case UInt8(ascii: "."), UInt8(ascii: ","):
                guard !seenSeparator else { return nil }
                seenSeparator = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: " "), 0x09:
                guard digits == 0 || byte == 0x20 || byte == 0x09 else { return nil }
            default:
                return nil
            }
        }
        return digits > 0 ? fraction : nil
    }

    /// The most a point written with `decimals` can be from the place it rounds: half the grid cell's diagonal.
    package static func errorMeters(decimals: Int, latitude: Double) -> Double {
        let halfStep = 0.5 * pow(10, -Double(decimals))
        let north = halfStep * Sphere.metersPerDegree
        let east = north * max(0, cos(latitude * .pi / 180))
        return (north * north + east * east).squareRoot()
    }

    /// The file's grid from a sample of row decimals: the coarsest grid, at most `fileGridDecimals`, that at least
    /// `fileGridShare` of the sample sits on; nil when the sample is too small or the file is finer.
    package static func fileGrid(sample: [Int]) -> Int? {
        guard sample.count >= minimumSample else { return nil }
        for grid in 0...fileGridDecimals {
            let onGrid = sample.lazy.filter { $0 <= grid }.count
            if Double(onGrid) >= fileGridShare * Double(sample.count) { return grid }
        }
        return nil
    }
}

/// A row whose coordinates are too coarse for a geofence.
package struct CoarseCoordinates: Sendable, Hashable {
    /// Decimals of the coarser coordinate.
    package var decimals: Int
    /// How far the written point may be from the store.
    package var errorMeters: Double

    package var message: String {
        "coordinates written to \(decimals) decimal\(decimals == 1 ? "" : "s") (±\(Int(errorMeters.rounded())) m): too coarse for a geofence"
    }
}

/// The coarse rows of one file, for its diagnosis.
struct CoarseTally {
    var rows = 0
    /// Rows and the sum of their implied errors, by decimals.
    var byDecimals: [Int: (rows: Int, errorSum: Double)] = [:]

    mutating func count(_ c: CoarseCoordinates) {
        rows += 1
        byDecimals[c.decimals, default: (0, 0)].rows += 1
        byDecimals[c.decimals, default: (0, 0)].errorSum += c.errorMeters
    }

    /// The diagnosis speaks of the most common grid and its mean error: a few rows that happen to be whole
    /// degrees must not make a two-decimal file sound 70 km wrong.
    func diagnosis(rowsWithCoordinates: Int, fileGrid: Int?) -> PrecisionDiagnosis? {
        guard let (decimals, typical) = byDecimals.max(by: { ($0.value.rows, -$0.key) < ($1.value.rows, -$1.key) }) else { return nil }
        return PrecisionDiagnosis.of(
            coarseRows: rows, rowsWithCoordinates: rowsWithCoordinates, typicalDecimals: decimals,
            errorMeters: typical.errorSum / Double(typical.rows), fileGrid: fileGrid)
    }
}

extension PrecisionDiagnosis {
    /// The diagnosis for a file, or nil when too few rows are coarse to speak of the file as a whole.
    static func of(
        coarseRows: Int, rowsWithCoordinates: Int, typicalDecimals typical: Int, errorMeters: Double,
        fileGrid: Int?
    ) -> PrecisionDiagnosis? {
        guard coarseRows > 0, rowsWithCoordinates > 0 else { return nil }
        let share = Double(coarseRows) / Double(rowsWithCoordinates)
        guard share >= CoordinatePrecision.diagnosisShare else { return nil }
        let percent = Int((share * 100).rounded())
        let advice = """
            \(percent) % of the rows with coordinates (\(coarseRows) of \(rowsWithCoordinates)) are rounded to \(typical) \
            decimal\(typical == 1 ? "" : "s"), typically ±\(Int(errorMeters.rounded())) m from the store: more than a 30–300 m \
            geofence. Geocode them by address (--geocoder URL --geocode coarse), or get the locations with more precise \
            coordinates.
            """
        return PrecisionDiagnosis(
            coarseRows: coarseRows, rowsWithCoordinates: rowsWithCoordinates, share: share,
            typicalDecimals: typical, errorMeters: errorMeters, fileGridDecimals: fileGrid, advice: advice)
    }
}
