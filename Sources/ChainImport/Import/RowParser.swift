import Foundation
import Geo

/// One data row as the parser hands it to the writing side: its mapped fields decoded and trimmed,
/// its coordinates checked. Fields the importer would not read for a rejected row are left nil.
struct ParsedRow: Sendable {
    var line: Int
    /// The row's field count when it has more fields than the header and the extra ones are not blank.
    var extraFieldCount: Int?
    var verdict: CoordinateVerdict
    var region: String?
    var country: String?
    var id: String?
    var network: String?
    var networkName: String?
    /// Whether the row matches `--network-name-where` (its network name then renames the network).
    var namesNetwork = false
    var address: String?
    var name: String?
    var city: String?
    var postalCode: String?
    /// The ZIP as the file had it, when it lost its leading zeros and `postalCode` holds the restored one.
    var zipBeforeRestoring: String?
    /// The id derived from name, address and coordinates, for a row without an id but with a name of its own.
    var derivedId: String?
    /// Decimals of the coarser coordinate (`CoordinatePrecision.decimals`), for rows with coordinates.
    var decimals: Int?
    /// Set when the coordinates are too coarse for a geofence (decided once the file's grid is known).
    var coarse: CoarseCoordinates?
    /// The row's address as a geocoder takes it; read only when the import geocodes.
    var addressQuery: AddressQuery?

    /// Whether the file gave usable coordinates (else only a geocoder can place the row).
    var hasFileCoordinates: Bool {
        if case .accepted = verdict { return true }
        return false
    }

    /// Whether `mode` sends this row to the geocoder: rows without coordinates always, coarse rows from `coarse` on,
    /// every row with `all`; never a row whose coordinates were rejected for another reason, nor one without an address.
    func wantsGeocode(_ mode: GeocodeMode) -> Bool {
        guard let query = addressQuery, !query.isEmpty else { return false }
        switch verdict {
        case .rejected(let code, _): return code == .missingCoordinates
        case .accepted: return mode == .all || (mode == .coarse && coarse != nil)
        }
    }
}

/// What the parser reports, in file order.
enum ParseEvent: Sendable {
    /// The header line, read before any row.
    case header(headers: [String], mapping: ColumnMapping)
    /// Rows, and how many bytes of the file have been read so far.
    case rows([ParsedRow], bytesRead: Int64)
    /// The end of the file.
    case finished(ParsedFile)
}

/// What the whole file turned out to be, for its report.
struct ParsedFile: Sendable {
    var bytesRead: Int64
    var sha256: String
    var encoding: String
    var mixedEncoding: Bool
    var hadByteOrderMark: Bool
    var delimiter: String
    /// The grid most of the file's first rows sit on, when it is coarse (`CoordinatePrecision.fileGrid`).
    var fileGridDecimals: Int?
}

/// The byte side of importing a file: checksum, encoding, CSV records, the mapped fields decoded and the
/// coordinates checked. It reads no store, so it can run ahead of the writes on another core (`ParsePipeline`).
struct RowParser: Sendable {
    let fileName: String
    let options: ImportOptions
    /// Rows per `.rows` event.
    let batchSize: Int
    private var sha = SHA256()
    private var detector: EncodingDetector
    private var bytesRead: Int64 = 0
    private var head: [UInt8] = []
    private var tokenizer: CSVTokenizer?
    private var sawBOM = false
    private var fields: RowFields?
    private var check: CoordinateCheck
    private var nameRowFilter: (index: Int, value: String)?
    private var batch: [ParsedRow] = []
    /// The first rows, held until they tell whether the file sits on a coarse grid (then every row is judged alike).
    private var undecided: [ParsedRow] = []
    private var gridDecided = false
    private var fileGrid: Int?
    /// An error met while rows were held: thrown by the next call, after those rows.
    private var pendingError: (any Error)?
    /// Whether every row goes to the network named by the options (a network column is then not read).
    private var hasFixedNetwork: Bool { options.network != nil || options.mapping?.network != nil }
    private var events: [ParseEvent] = []

    init(fileName: String, options: ImportOptions, batchSize: Int = 1024) {
        self.fileName = fileName
        self.options = options
        self.batchSize = max(1, batchSize)
        let forced = options.encoding ?? options.mapping?.encoding.flatMap(TextEncoding.init(name:))
        detector = EncodingDetector(forced: forced)
        check = CoordinateCheck(fixCoordinates: options.fixCoordinates)
    }

    /// Parses the next bytes of the file; returns the events they completed.
    mutating func consume(_ chunk: [UInt8]) throws -> [ParseEvent] {
        if let pendingError { throw pendingError }
        do {
            return try consumeChunk(chunk)
        } catch {
            return try handOverHeldRows(before: error)
        }
    }

    /// Throws an error that `finish` held back to hand over rows first.
    mutating func throwPendingError() throws {
        if let pendingError { throw pendingError }
    }

    /// A parse error must come after the rows before it, as it would if no row were held for the grid decision:
    /// the held rows go out now and the error with the next call.
    private mutating func handOverHeldRows(before error: any Error) throws -> [ParseEvent] {
        guard !undecided.isEmpty else { throw error }
        pendingError = error
        decideGrid()
        return takeEvents()
    }

    private mutating func consumeChunk(_ chunk: [UInt8]) throws -> [ParseEvent] {
        bytesRead += Int64(chunk.count)
        chunk.withUnsafeBufferPointer { sha.update($0); detector.scan($0) }
        if tokenizer == nil {
            head.append(contentsOf: chunk)
            // The delimiter is detected from the whole header line, so wait for its end.
            guard head.contains(0x0A) || head.contains(0x0D) || head.count >= 1 << 16 else { return [] }
            try start()
        } else {
            try feed(chunk)
        }
        return takeEvents()
    }

    /// Parses what is left after the last byte; the last event is `.finished`.
    mutating func finish() throws -> [ParseEvent] {
        if let pendingError { throw pendingError }
        do {
            return try finishFile()
        } catch {
            return try handOverHeldRows(before: error)
        }
    }

    private mutating func finishFile() throws -> [ParseEvent] {
        if tokenizer == nil {
            guard !head.isEmpty else { throw ImportError.csv(file: fileName, .emptyFile) }
            try start()
        }
        detector.finish()
        do {
            var t = tokenizer!
            try t.finish { record in try self.handle(record) }
            tokenizer = t
        } catch let error as CSVError { throw ImportError.csv(file: fileName, error) }
        if fields == nil { throw ImportError.csv(file: fileName, .emptyFile) }
        if !gridDecided { decideGrid() }
        var out = takeEvents()
        let delimiter = tokenizer.map { $0.delimiter == 0x09 ? "\\t" : String(UnicodeScalar($0.delimiter)) } ?? ","
        let encoding = detector.isMixed ? "mixed utf-8/\(detector.encoding.rawValue)" : detector.encoding.rawValue
        out.append(.finished(ParsedFile(bytesRead: bytesRead, sha256: sha.finalizeHex(), encoding: encoding,
                                        mixedEncoding: detector.isMixed, hadByteOrderMark: sawBOM, delimiter: delimiter,
                                        fileGridDecimals: fileGrid)))
        return out
    }

    private mutating func takeEvents() -> [ParseEvent] {
        flushBatch()
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    private mutating func flushBatch() {
        guard !batch.isEmpty else { return }
        events.append(.rows(batch, bytesRead: bytesRead))
        batch.removeAll(keepingCapacity: true)
    }

    private mutating func start() throws {
        var body = head[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) {
            sawBOM = true
            body = body.dropFirst(3)
        } else if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
            throw ImportError.csv(file: fileName, .unsupportedEncoding("UTF-16 (byte order mark found)"))
        }
        let forced = options.delimiter ?? options.mapping?.delimiter.flatMap { $0 == "\\t" ? 0x09 : $0.utf8.first }
        tokenizer = CSVTokenizer(delimiter: forced ?? Self.detectDelimiter(body))
        check.allowDecimalComma = tokenizer!.delimiter != UInt8(ascii: ",")
        let rest = Array(body)
        head = []
        try feed(rest)
    }

    /// The most frequent of `,` `;` tab `|` outside quotes on the header line; `,` when none.
    static func detectDelimiter(_ bytes: ArraySlice<UInt8>) -> UInt8 {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
        var counts = [0, 0, 0, 0]
        var quoted = false
        for b in bytes {
            if b == 0x22 { quoted.toggle() }
            if quoted { continue }
            if b == 0x0A || b == 0x0D { break }
            if let i = candidates.firstIndex(of: b) { counts[i] += 1 }
        }
        let best = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }!
        return counts[best] > 0 ? candidates[best] : 0x2C
    }

    private mutating func feed(_ bytes: [UInt8]) throws {
        var t = tokenizer!
        tokenizer = nil   // keep the tokenizer uniquely referenced while it runs
        defer { tokenizer = t }
        do {
            try bytes.withUnsafeBufferPointer { buffer in
                try t.feed(buffer) { record in try self.handle(record) }
            }
        } catch let error as CSVError { throw ImportError.csv(file: fileName, error) }
    }

    private mutating func handle(_ record: CSVRecord) throws {
        guard let fields else { return try readHeader(record) }
        var row = parse(record, fields)
        if gridDecided {
            markCoarse(&row)
            append(row)
        } else {
            undecided.append(row)
            if undecided.count >= CoordinatePrecision.sampleRows { decideGrid() }
        }
    }

    private mutating func append(_ row: ParsedRow) {
        batch.append(row)
        if batch.count >= batchSize { flushBatch() }
    }

    private mutating func decideGrid() {
        gridDecided = true
        fileGrid = CoordinatePrecision.fileGrid(sample: undecided.compactMap(\.decimals))
        let held = undecided
        undecided = []
        for var row in held {
            markCoarse(&row)
            append(row)
        }
    }

    /// Coarse: at most two decimals, or on the coarse grid most of the file sits on.
    private func markCoarse(_ row: inout ParsedRow) {
        guard var d = row.decimals, case .accepted(let c, _) = row.verdict else { return }
        guard d <= CoordinatePrecision.coarseDecimals || fileGrid.map({ d <= $0 }) == true else { return }
        // On a file-wide grid, `40.00, -74.00` is a point of that grid, not a whole degree.
        if let fileGrid { d = max(d, fileGrid) }
        row.coarse = CoarseCoordinates(decimals: d, errorMeters: CoordinatePrecision.errorMeters(decimals: d, latitude: c.latitude))
    }

    private mutating func readHeader(_ record: CSVRecord) throws {
        let headers = (0..<record.count).map { RowFields.clean(record.field($0), decoder: &detector) ?? "" }
        let mapping: ColumnMapping
        do throws(MappingError) {
            mapping = try ColumnMapping(headers: headers, file: options.mapping, networkColumn: options.networkColumn,
                                        networkNameColumn: options.networkNameColumn, geocoding: options.geocoding != nil)
        } catch { throw ImportError.mapping(file: fileName, error) }
        if let w = options.networkNameWhere {
            let wanted = w.column.trimmingCharacters(in: .whitespaces)
            guard let i = headers.firstIndex(where: { $0.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                throw ImportError.mapping(file: fileName, .unknownColumn(role: "network name row", column: w.column, headers: headers))
            }
            nameRowFilter = (i, w.value)
        }
        fields = RowFields(mapping: mapping)
        events.append(.header(headers: headers, mapping: mapping))
    }

    /// Decodes the fields the importer reads, in the order it reads them (decoding records which encodings the file used).
    private mutating func parse(_ record: CSVRecord, _ fields: RowFields) -> ParsedRow {
        var extra: Int?
        if record.count > fields.mapping.headers.count, record.field(record.count - 1).contains(where: { $0 != 0x20 }) {
            extra = record.count
        }
        let region = fields.value(.region, in: record, decoder: &detector)
        let country = fields.value(.country, in: record, decoder: &detector)
        let verdict = check.check(latitude: fields.value(.latitude, in: record, decoder: &detector) ?? "",
                                  longitude: fields.value(.longitude, in: record, decoder: &detector) ?? "",
                                  region: region, country: country)
        var row = ParsedRow(line: record.line, extraFieldCount: extra, verdict: verdict, region: region, country: country)
        let coordinate: Coordinate?
        switch verdict {
        case .accepted(let c, _):
            coordinate = c
            row.decimals = max(CoordinatePrecision.decimals(c.latitude), CoordinatePrecision.decimals(c.longitude))
        case .rejected(.missingCoordinates, _) where options.geocoding != nil:
            coordinate = nil   // a geocoder may place it: read the rest of the row
        case .rejected:
            row.id = fields.value(.id, in: record, decoder: &detector)
            return row
        }
        if !hasFixedNetwork {
            row.network = fields.value(.network, in: record, decoder: &detector)
            guard row.network != nil else { return row }
            row.networkName = fields.value(.networkName, in: record, decoder: &detector)
            if let filter = nameRowFilter, row.networkName != nil {
                row.namesNetwork = RowFields.clean(record.field(filter.index), decoder: &detector) == filter.value
            }
        }
        row.address = fields.value(.address, in: record, decoder: &detector)
        row.name = fields.value(.name, in: record, decoder: &detector)
        var postal = fields.value(.postalCode, in: record, decoder: &detector)
        if postal == nil, !fields.has(.postalCode), let address = row.address { postal = PostalCode.zipInAddress(address) }
        let isUS = country.map(USRegions.isUnitedStates) ?? (region.flatMap(USRegions.region) != nil)
        if isUS, let p = postal, let fixed = PostalCode.restoredZip(p) {
            row.zipBeforeRestoring = p
            postal = fixed
        }
        row.postalCode = postal
        row.id = fields.value(.id, in: record, decoder: &detector)
        row.city = fields.value(.city, in: record, decoder: &detector)
        if row.id == nil, let name = row.name {
            row.derivedId = coordinate.map {
                StableId.derive(name: name, address: row.address, latitude: $0.latitude, longitude: $0.longitude)
            } ?? StableId.derive(name: name, address: row.address, city: row.city, postalCode: row.postalCode)
        }
        if let geocoding = options.geocoding {
            row.addressQuery = AddressQuery(amenity: geocoding.searchByName ? row.name : nil, street: row.address, city: row.city, state: region, postalCode: row.postalCode,
                                            country: country)
        }
        return row
    }
}
