import Foundation
import Geo

/// How densely people live around a point, from the world's populated places (GeoNames, shipped in the binary):
/// the radius tiers follow the place, not the rows an admin happened to import.
///
/// Each place (a point with its population P) is spread around its centre by a kernel whose mass is P, so the
/// estimate is in people per km²:
///
///     D(x) = Σ P / (π s²) · (1 + d²/s²)⁻²   over the places within 5 s of x (d: distance to the place),
///     s = max(√(P / (π ρc(P))), 1.7 km),   ρc(P) = 3000 · (P / 100 000)^0.2
///
/// so a place's centre has density ρc (bigger cities are denser), and its heavy tail carries a city into the suburbs
/// and edge-of-town retail parks that a kernel with a hard edge leaves empty (a Costco 7.6 km from Naperville's
/// GeoNames point). Cut at 5 s, where a place adds at most 0.15 % of its centre. GeoNames lists a city's boroughs
/// and neighbourhoods beside the city in some countries; the sum counts both, which raises such centres but not
/// their tier. Distances are chords on the unit sphere, so the antimeridian and the poles need nothing special.
public final class PopulatedPlaces: Sendable {
    /// ρc of a place of 100,000 people, people per km².
    public static let centralDensity = 3_000.0
    /// How ρc grows with population.
    public static let growth = 0.2
    /// The smallest kernel scale s, km: a village is not a spike.
    public static let minimumScaleKm = 1.7
    /// A place counts out to this many times its scale.
    public static let reachScales = 5.0

    /// The places of the binary, decoded on first use (about 50 ms).
    public static let shared = PopulatedPlaces(base64: embeddedBase64)

    /// Unit vectors of the places.
    private let x: [Double], y: [Double], z: [Double]
    /// Per place: the squared chord of its reach on the unit sphere, 1 / s² in the same units, and P / (π s²).
    private let reach: [Double]
    private let inverseScale2: [Double]
    private let peak: [Double]
    private let grid: CoverGrid
    public let count: Int
    public let totalPopulation: Int

    init(base64: String) {
        let bytes = [UInt8](Data(base64Encoded: base64) ?? Data())
        let n = bytes.count / 12
        var x = [Double](repeating: 0, count: n)
        var y = x
        var z = x
        var reach = x
        var inverseScale2 = x
        var peak = x
        var radiusDegrees = [Double](repeating: 0, count: n)
        var latitudes = x
        var longitudes = x
        var population = 0
        func int32(_ at: Int) -> Int32 {
            Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
        }
        for i in 0..<n {
            let lat = Double(int32(12 * i)) / 10_000
            let lon = Double(int32(12 * i + 4)) / 10_000
            let people = Double(UInt32(bitPattern: int32(12 * i + 8)))
            population += Int(people)
            let phi = lat * .pi / 180
            let lambda = lon * .pi / 180
            x[i] = cos(phi) * cos(lambda)
            y[i] = cos(phi) * sin(lambda)
            z[i] = sin(phi)
            let central = Self.centralDensity * pow(people / 100_000, Self.growth)
            let scaleKm = max(Self.minimumScaleKm, (people / (.pi * central)).squareRoot())
            // The kernel's height at the centre: ρc unless the scale was raised to the minimum.
            peak[i] = people / (.pi * scaleKm * scaleKm)
            let scale = scaleKm / (Sphere.earthRadiusMeters / 1000)  // on the unit sphere
            inverseScale2[i] = 1 / (scale * scale)
            let chord = 2 * sin(Self.reachScales * scale / 2)
            reach[i] = chord * chord
            radiusDegrees[i] = Self.reachScales * scale * 180 / .pi
            latitudes[i] = lat
            longitudes[i] = lon
        }
        self.x = x
        self.y = y
        self.z = z
        self.reach = reach
        self.inverseScale2 = inverseScale2
        self.peak = peak
        count = n
        totalPopulation = population
        grid = CoverGrid(latitudes: latitudes, longitudes: longitudes, radiusDegrees: radiusDegrees)
    }

    /// People per km² around a point given as a unit vector (see `UnitVector`).
    public func density(x qx: Double, y qy: Double, z qz: Double, latitude: Double, longitude: Double) -> Double {
        var total = 0.0
        for i in grid.places(latitude: latitude, longitude: longitude) {
            let p = Int(i)
            let dx = x[p] - qx
            let dy = y[p] - qy
            let dz = z[p] - qz
            let c2 = dx * dx + dy * dy + dz * dz
            guard c2 < reach[p] else { continue }
            // Chords stand for arcs: at the largest reach (150 km) they differ by one part in 10,000.
            let q = 1 + c2 * inverseScale2[p]
            total += peak[p] / (q * q)
        }
        return total
    }

    /// People per km² around a coordinate.
    public func density(latitude: Double, longitude: Double) -> Double {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        return density(x: cos(phi) * cos(lambda), y: cos(phi) * sin(lambda), z: sin(phi), latitude: latitude, longitude: longitude)
    }
}

/// For each cell of a 0.1° grid, the places whose disc reaches into it, in compressed rows: a lookup is one binary
/// search and a short list, whatever the size of the largest city.
struct CoverGrid: Sendable {
    static let cellsPerDegree = 10.0
    static let lonCells = 3_600
    static let latCells = 1_800

    /// Occupied cells, sorted, and where each one's places start in `members`.
    private let cells: [UInt32]
    private let starts: [UInt32]
    private let members: [UInt32]

    /// Built by two counting sorts (by row, then by column within a row) rather than a comparison sort: linear, and
    /// quick even unoptimised, where a million-element `sort()` takes seconds in a debug or sanitizer build. Both
    /// sorts are stable, so a cell's places stay in index order.
    init(latitudes: [Double], longitudes: [Double], radiusDegrees: [Double]) {
        // Every (cell, place) pair, as row and (column << 32 | place), in place order.
        var pairRows: [UInt16] = []
        var pairEntries: [UInt64] = []
        pairRows.reserveCapacity(latitudes.count * 6)
        pairEntries.reserveCapacity(latitudes.count * 6)
        var columns: [Int] = []
        for i in latitudes.indices {
            let r = radiusDegrees[i] * 1.01  // a margin for the rounding of cell edges
            let lat0 = max(-90, latitudes[i] - r)
            let lat1 = min(90, latitudes[i] + r)
            let widest = max(abs(lat0), abs(lat1))
            let halfWidth = widest >= 89.9 ? 180 : r / max(cos(widest * .pi / 180), 1e-6)
            columns.removeAll(keepingCapacity: true)
            if halfWidth >= 180 {
                columns.append(contentsOf: 0..<Self.lonCells)
            } else {
                let first = Int(((longitudes[i] - halfWidth + 180) * Self.cellsPerDegree).rounded(.down))
                let last = Int(((longitudes[i] + halfWidth + 180) * Self.cellsPerDegree).rounded(.down))
                for c in first...last { columns.append(((c % Self.lonCells) + Self.lonCells) % Self.lonCells) }
            }
            for row in Self.row(lat0)...Self.row(lat1) {
                for column in columns {
                    pairRows.append(UInt16(row))
                    pairEntries.append(UInt64(column) << 32 | UInt64(i))
                }
            }
        }
        let byRow = Self.countingSort(pairEntries, keys: pairRows, buckets: Self.latCells)
        var cells: [UInt32] = []
        var starts: [UInt32] = []
        var members: [UInt32] = []
        members.reserveCapacity(pairEntries.count)
        var columnCounts = [Int](repeating: 0, count: Self.lonCells)
        var rowEntries: [UInt64] = []
        for row in 0..<Self.latCells where byRow.starts[row] < byRow.starts[row + 1] {
            rowEntries.removeAll(keepingCapacity: true)
            rowEntries.append(contentsOf: byRow.sorted[byRow.starts[row]..<byRow.starts[row + 1]])
            for e in rowEntries { columnCounts[Int(e >> 32)] += 1 }
            var ordered = [UInt64](repeating: 0, count: rowEntries.count)
            var next = 0
            var firstOfColumn = [Int](repeating: 0, count: Self.lonCells)
            for column in 0..<Self.lonCells where columnCounts[column] > 0 {
                firstOfColumn[column] = next
                cells.append(UInt32(row * Self.lonCells + column))
                starts.append(UInt32(members.count + next))
                next += columnCounts[column]
                columnCounts[column] = 0
            }
            for e in rowEntries {
                let column = Int(e >> 32)
                ordered[firstOfColumn[column]] = e
                firstOfColumn[column] += 1
            }
            for e in ordered { members.append(UInt32(truncatingIfNeeded: e)) }
        }
        starts.append(UInt32(members.count))
        self.cells = cells
        self.starts = starts
        self.members = members
    }

    /// A stable counting sort of `values` by `keys` (each in 0..<buckets): the values in key order, and where each
    /// key's run starts (`buckets + 1` entries).
    private static func countingSort(
        _ values: [UInt64], keys: [UInt16], buckets: Int
    ) -> (sorted: [UInt64], starts: [Int]) {
        var starts = [Int](repeating: 0, count: buckets + 1)
        for key in keys { starts[Int(key) + 1] += 1 }
        for b in 0..<buckets { starts[b + 1] += starts[b] }
        var cursor = starts
        var sorted = [UInt64](repeating: 0, count: values.count)
        for (k, value) in values.enumerated() {
            let key = Int(keys[k])
            sorted[cursor[key]] = value
            cursor[key] += 1
        }
        return (sorted, starts)
    }

    static func row(_ latitude: Double) -> Int {
        min(latCells - 1, max(0, Int(((latitude + 90) * cellsPerDegree).rounded(.down))))
    }

    static func column(_ longitude: Double) -> Int {
        let c = Int(((longitude + 180) * cellsPerDegree).rounded(.down))
        return ((c % lonCells) + lonCells) % lonCells
    }

    /// The places whose disc may reach a point.
    func places(latitude: Double, longitude: Double) -> ArraySlice<UInt32> {
        let cell = UInt32(Self.row(latitude) * Self.lonCells + Self.column(longitude))
        var lo = 0
        var hi = cells.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cells[mid] < cell { lo = mid + 1 } else { hi = mid }
        }
        guard lo < cells.count, cells[lo] == cell else { return [] }
        return members[Int(starts[lo])..<Int(starts[lo + 1])]
    }
}
