import LocationStore

/// Builds SpatiaLite's R*Tree (`idx_locations_geom`, SQLite's rtree module) in one streaming pass, packed
/// along the geohash curve, by writing its three shadow tables directly — the way GDAL bulk-loads it.
///
/// Inserting a million points one by one through the virtual table (choose-leaf, splits, forced
/// reinsertion) took longer than reading and validating the CSV. Points read in geohash order are
/// already grouped on the ground, so consecutive runs make good leaves; parents are filled the same way,
/// one node per level in memory. The format is SQLite's (rtree.c): node 1 is the root and carries the
/// tree depth in its first two bytes; every node is a blob of the table's node size holding a 16-bit
/// big-endian cell count and cells of a 64-bit id and four float32 bounds (min rounded down, max up);
/// `_rowid` maps an entry to its leaf, `_parent` a node to its parent. `rtreecheck()` and SpatiaLite's
/// `CheckSpatialIndex()` verify the result in the tests.
extension SQLiteLocationStore {
    /// Replaces the whole spatial index with a packed one over every location; returns the entries written.
    /// Call inside a transaction, with no statement reading the R*Tree.
    func rebuildSpatialIndexPacked() throws(StoreError) -> Int {
        guard let nodeSize = try db.scalarInt("SELECT length(data) FROM idx_locations_geom_node WHERE nodeno = 1"), nodeSize >= 4 + 24 * 2 else {
            throw .spatialiteUnavailable("idx_locations_geom has no root node")
        }
        try db.execute("DELETE FROM idx_locations_geom_node; DELETE FROM idx_locations_geom_rowid; DELETE FROM idx_locations_geom_parent")
        var writer = PackedRTreeWriter(
            nodeSize: Int(nodeSize),
            node: try db.statement("INSERT INTO idx_locations_geom_node (nodeno, data) VALUES (?1, ?2)"),
            rowid: try db.statement("INSERT INTO idx_locations_geom_rowid (rowid, nodeno) VALUES (?1, ?2)"),
            parent: try db.statement("INSERT INTO idx_locations_geom_parent (nodeno, parentnode) VALUES (?1, ?2)"))
        let points = try db.statement("SELECT ROWID, lon, lat FROM locations INDEXED BY locations_by_geohash ORDER BY geohash")
        var count = 0
        while try points.step() {
            let lon = points.double(1)
            let lat = points.double(2)
            try writer.add(
                PackedRTreeWriter.Cell(
                    id: points.int64(0), minX: Self.floatDown(lon), maxX: Self.floatUp(lon),
                    minY: Self.floatDown(lat), maxY: Self.floatUp(lat)), level: 0)
            count += 1
        }
        points.reset()
        try writer.finish()
        return count
    }

    static func floatDown(_ v: Double) -> Float {
        let f = Float(v)
        return Double(f) > v ? f.nextDown : f
    }

    static func floatUp(_ v: Double) -> Float {
        let f = Float(v)
        return Double(f) < v ? f.nextUp : f
    }
}

/// Streams cells into full nodes, level by level, and writes them in SQLite's rtree format.
struct PackedRTreeWriter {
    struct Cell {
        var id: Int64
        var minX, maxX, minY, maxY: Float
    }

    let nodeSize: Int
    let capacity: Int
    let node: SQLiteStatement
    let rowid: SQLiteStatement
    let parent: SQLiteStatement
    /// The node being filled at each level (leaves at 0).
    private var pending: [[Cell]] = []
    /// Nodes written per level: a level's only node, written last, is the root.
    private var written: [Int] = []
    /// Node 1 is the root; the others are numbered from 2 as they are written.
    private var nextNode: Int64 = 2

    init(nodeSize: Int, node: SQLiteStatement, rowid: SQLiteStatement, parent: SQLiteStatement) {
        self.nodeSize = nodeSize
        capacity = (nodeSize - 4) / 24
        self.node = node
        self.rowid = rowid
        self.parent = parent
    }

    mutating func add(_ cell: Cell, level: Int) throws(StoreError) {
        while pending.count <= level {
            pending.append([])
            written.append(0)
        }
        pending[level].append(cell)
        if pending[level].count == capacity { try flush(level) }
    }

    /// Writes the partly filled nodes bottom up; the top one becomes node 1.
    mutating func finish() throws(StoreError) {
        if pending.isEmpty {
            pending = [[]]
            written = [0]
        }
        var level = 0
        while level < pending.count {
            let top = level == pending.count - 1
            if top && written[level] == 0 {
                try write(pending[level], nodeno: 1, level: level, depth: level)
                return
            }
            if !pending[level].isEmpty { try flush(level) }
            level += 1
        }
    }

    private mutating func flush(_ level: Int) throws(StoreError) {
        let cells = pending[level]
        pending[level].removeAll(keepingCapacity: true)
        let nodeno = nextNode
        nextNode += 1
        written[level] += 1
        try write(cells, nodeno: nodeno, level: level, depth: 0)
        var box = Cell(id: nodeno, minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)
        for c in cells {
            box.minX = min(box.minX, c.minX)
            box.maxX = max(box.maxX, c.maxX)
            box.minY = min(box.minY, c.minY)
            box.maxY = max(box.maxY, c.maxY)
        }
        try add(box, level: level + 1)
    }

    private func write(_ cells: [Cell], nodeno: Int64, level: Int, depth: Int) throws(StoreError) {
        var blob = [UInt8](repeating: 0, count: nodeSize)
        blob[0] = UInt8(depth >> 8)
        blob[1] = UInt8(depth & 0xFF)
        blob[2] = UInt8(cells.count >> 8)
        blob[3] = UInt8(cells.count & 0xFF)
        var at = 4
        func put(_ v: UInt64, _ bytes: Int) {
            for k in 0..<bytes { blob[at + k] = UInt8(truncatingIfNeeded: v >> (8 * (bytes - 1 - k))) }
            at += bytes
        }
        for c in cells {
            put(UInt64(bitPattern: c.id), 8)
            for f in [c.minX, c.maxX, c.minY, c.maxY] { put(UInt64(f.bitPattern), 4) }
        }
        node.reset()
        node.bind(1, nodeno)
        node.bind(2, blob: blob)
        try node.step()
        // Leaf cells are locations (their leaf in `_rowid`); inner cells are child nodes (their parent in `_parent`).
        let map = level == 0 ? rowid : parent
        for c in cells {
            map.reset()
            map.bind(1, c.id)
            map.bind(2, nodeno)
            try map.step()
        }
    }
}
