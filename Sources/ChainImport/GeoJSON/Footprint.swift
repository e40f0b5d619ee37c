import Foundation
import Geo

/// A building's or a venue's outline as one point and a radius: the point a region is centred on, and the smallest
/// circle around it that holds the whole outline.
///
/// The point is the area's centroid when the centroid lies inside it, else its pole of inaccessibility (the inside
/// point farthest from the edges, found with Mapbox's polylabel search): an L-shaped building or a shopping centre
/// around a courtyard has its centroid outside, and a region centred there would stand on the street.
struct Footprint {
    var center: Coordinate
    /// Metres from `center` to the farthest vertex of every part.
    var radiusMeters: Double

    /// One polygon: an outer ring, then its holes; each ring a list of (longitude, latitude).
    typealias Polygon = [[(lon: Double, lat: Double)]]

    /// Vertices a pole search measures edges against; longer rings are sampled evenly, which moves the pole by
    /// less than the spacing of the samples and keeps a 100,000-vertex outline from costing minutes.
    static let searchVertexLimit = 2_048
    /// Cells the pole search may open: it stops there with the best point found (bounded cost on any input).
    static let searchCellLimit = 4_096

    /// The footprint of a multipolygon: centred in its largest part, reaching every part. Nil when no part has area.
    init?(parts: [Polygon]) {
        let projection = LocalProjection(parts: parts)
        let projected = parts.map { $0.map { ring in ring.map { projection.project($0) } } }
        guard let largest = projected.indices.max(by: { Self.area(projected[$0]) < Self.area(projected[$1]) }),
            Self.area(projected[largest]) > 0
        else { return nil }
        let polygon = projected[largest]
        let inside = Self.centroid(polygon).flatMap { Self.contains(polygon, $0) ? $0 : nil }
        let point = inside ?? Self.pole(polygon)
        guard let center = try? projection.unproject(point) else { return nil }
        self.center = center
        var farthest = 0.0
        for part in parts {
            for vertex in part.first ?? [] {
                guard let c = try? Coordinate(latitude: vertex.lat, longitude: vertex.lon) else { continue }
                farthest = max(farthest, Sphere.distance(center, c))
            }
        }
        radiusMeters = farthest
    }

    // MARK: plane geometry on projected metres

    typealias Point = (x: Double, y: Double)

    /// Signed area of a polygon minus its holes (outer ring's orientation decides the sign; taken absolute).
    static func area(_ polygon: [[Point]]) -> Double {
        guard let outer = polygon.first else { return 0 }
        return abs(ringArea(outer)) - polygon.dropFirst().reduce(0) { $0 + abs(ringArea($1)) }
    }

    private static func ringArea(_ ring: [Point]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var j = ring.count - 1
        for i in ring.indices {
            sum += (ring[j].x * ring[i].y) - (ring[i].x * ring[j].y)
            j = i
        }
        return sum / 2
    }

    /// The area-weighted centroid of the outer ring minus its holes.
    static func centroid(_ polygon: [[Point]]) -> Point? {
        var cx = 0.0
        var cy = 0.0
        var total = 0.0
        for (k, ring) in polygon.enumerated() where ring.count >= 3 {
            var ax = 0.0
            var ay = 0.0
            var a = 0.0
            var j = ring.count - 1
            for i in ring.indices {
                let cross = ring[j].x * ring[i].y - ring[i].x * ring[j].y
                ax += (ring[j].x + ring[i].x) * cross
                ay += (ring[j].y + ring[i].y) * cross
                a += cross
                j = i
            }
            guard a != 0 else { continue }
            // Each ring's centroid weighted by its area; holes count negative whatever their winding.
            let weight = abs(a / 2) * (k == 0 ? 1 : -1)
            cx += ax / (3 * a) * weight
            cy += ay / (3 * a) * weight
            total += weight
        }
        guard total > 0 else { return nil }
        return (cx / total, cy / total)
    }

    /// Even-odd: inside the outer ring and in none of its holes.
    static func contains(_ polygon: [[Point]], _ p: Point) -> Bool {
        var inside = false
        for ring in polygon where ring.count >= 3 {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i]
                let b = ring[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    /// Signed distance from `p` to the polygon's edges: positive inside.
    static func signedDistance(_ polygon: [[Point]], _ p: Point) -> Double {
        var best = Double.infinity
        for ring in polygon where ring.count >= 2 {
            var j = ring.count - 1
            for i in ring.indices {
                best = min(best, segmentDistance(p, ring[i], ring[j]))
                j = i
            }
        }
        return contains(polygon, p) ? best : -best
    }

    private static func segmentDistance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2)) : 0
        let x = a.x + t * dx - p.x
        let y = a.y + t * dy - p.y
        return (x * x + y * y).squareRoot()
    }

    /// Polylabel: square cells over the bounding box, split best-first by the distance a point in them could reach,
    /// until no cell can beat the best by more than `precision` metres (or the cell budget is spent).
    static func pole(_ full: [[Point]], precision: Double = 0.5) -> Point {
        let polygon = full.map(sampled)
        let outer = polygon[0]
        let xs = outer.map(\.x)
        let ys = outer.map(\.y)
        let (minX, maxX, minY, maxY) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        // Square cells of the box's shorter side; for a sliver (a wall 1 cm wide and kilometres long) no fewer than the
        // cell budget would cover it, so the first grid cannot cost more than the whole search may.
        let size = max(min(maxX - minX, maxY - minY), ((maxX - minX) * (maxY - minY) / Double(searchCellLimit)).squareRoot())
        guard size > 0 else { return (minX, minY) }
        var queue = CellQueue()
        func cell(_ x: Double, _ y: Double, _ h: Double) -> Cell {
            let d = signedDistance(polygon, (x, y))
            return Cell(x: x, y: y, half: h, distance: d, potential: d + h * 2.0.squareRoot())
        }
        var y = minY
        while y < maxY {
            var x = minX
            while x < maxX {
                queue.push(cell(x + size / 2, y + size / 2, size / 2))
                x += size
            }
            y += size
        }
        let centroidCell = centroid(polygon).map { cell($0.x, $0.y, 0) }
        var best = cell((minX + maxX) / 2, (minY + maxY) / 2, 0)
        if let c = centroidCell, c.distance > best.distance { best = c }
        var opened = 0
        while let c = queue.pop(), opened < searchCellLimit {
            opened += 1
            if c.distance > best.distance { best = c }
            guard c.potential - best.distance > precision else { continue }
            let h = c.half / 2
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] { queue.push(cell(c.x + dx, c.y + dy, h)) }
        }
        return (best.x, best.y)
    }

    private static func sampled(_ ring: [Point]) -> [Point] {
        guard ring.count > searchVertexLimit else { return ring }
        let step = Double(ring.count) / Double(searchVertexLimit)
        return (0..<searchVertexLimit).map { ring[Int(Double($0) * step)] }
    }

    struct Cell {
        var x, y, half, distance, potential: Double
    }

    /// A binary max-heap of cells by potential.
    struct CellQueue {
        private var items: [Cell] = []

        mutating func push(_ cell: Cell) {
            items.append(cell)
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard items[parent].potential < items[i].potential else { break }
                items.swapAt(parent, i)
                i = parent
            }
        }

        mutating func pop() -> Cell? {
            guard !items.isEmpty else { return nil }
            items.swapAt(0, items.count - 1)
            let top = items.removeLast()
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var largest = i
                if l < items.count && items[l].potential > items[largest].potential { largest = l }
                if r < items.count && items[r].potential > items[largest].potential { largest = r }
                if largest == i { break }
                items.swapAt(i, largest)
                i = largest
            }
            return top
        }
    }
}

/// An equirectangular projection in metres around the outline's first vertex: exact enough for a building or a
/// venue (a few kilometres), and longitudes unwrapped so an outline across the antimeridian stays whole.
struct LocalProjection {
    let lon0: Double
    let lat0: Double
    let metresPerDegreeLat: Double
    let metresPerDegreeLon: Double

    init(parts: [Footprint.Polygon]) {
        let first = parts.first?.first?.first ?? (lon: 0, lat: 0)
        lon0 = first.lon
        lat0 = first.lat
        metresPerDegreeLat = Sphere.metersPerDegree
        metresPerDegreeLon = metresPerDegreeLat * cos(lat0 * .pi / 180)
    }

    func project(_ p: (lon: Double, lat: Double)) -> Footprint.Point {
        var dLon = p.lon - lon0
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegreeLon, (p.lat - lat0) * metresPerDegreeLat)
    }

    func unproject(_ p: Footprint.Point) throws -> Coordinate {
        var lon = lon0 + (metresPerDegreeLon > 0 ? p.x / metresPerDegreeLon : 0)
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return try Coordinate(latitude: lat0 + p.y / metresPerDegreeLat, longitude: lon)
    }
}
