import Foundation
import Geo
import LocationStore

/// The byte side of importing a file: checksum, encoding, CSV records or GeoJSON features (told apart by the first
/// byte), the mapped fields decoded and the coordinates checked. It reads no store, so it can run ahead of the writes
/// on another core (`ParsePipeline`).
package struct RowParser: Sendable {
    let fileName: String
    let options: ImportOptions
    /// Rows per `.rows` event.
    let batchSize: Int
    /// The bytes are parsed in blocks of this size, whatever the size of the reads that bring them. The encoding of
    /// a field is decided from the bytes scanned so far, so fixed blocks make the same file decode alike from a disk
    /// (1 MiB reads), an upload (network-sized reads) or a test (any reads).
    let blockSize: Int
    private var block: [UInt8] = []
    private var sha = SHA256()
    var detector: EncodingDetector
    private var bytesRead: Int64 = 0
    var head: [UInt8] = []
    private var tokenizer: CSVTokenizer?
    /// Set instead of `tokenizer` when the file is GeoJSON.
    var geojson: GeoJSONInput?
    private var started: Bool { tokenizer != nil || geojson != nil }
    private var sawBOM = false
    /// The CSV delimiter, once `start` has chosen it (the tokenizer is out of `tokenizer` while it runs).
    private var delimiter: UInt8 = 0x2C
    var fields: RowFields?
    private var check: CoordinateCheck
    /// The file's points so far, against which a lone point's other readings are held.
    private var placement: PlacementCheck
    var nameRowFilter: (index: Int, value: String)?
    /// A mapping file's `network_patterns`, compiled.
    private let networkPatterns: NetworkPatternMatcher?
    /// The time the patterns have taken so far in this import.
    private var patternBudget = PatternBudget()
    private var batch: [ParsedRow] = []
    /// The first rows, held until they tell whether the file sits on a coarse grid (then every row is judged alike).
    private var undecided: [ParsedRow] = []
    private var gridDecided = false
    private var fileGrid: Int?
    /// An error met while rows were held: thrown by the next call, after those rows.
    private var pendingError: (any Error)?
    var events: [ParseEvent] = []

    static let defaultBlockSize = 1 << 20

    package init(fileName: String, options: ImportOptions, batchSize: Int = 1024, blockSize: Int = RowParser.defaultBlockSize) {
        self.fileName = fileName
        self.options = options
        self.batchSize = max(1, batchSize)
        self.blockSize = max(1, blockSize)
        let forced = options.encoding ?? options.mapping?.encoding.flatMap(TextEncoding.init(name:))
        detector = EncodingDetector(forced: forced)
        check = CoordinateCheck(fixCoordinates: options.fixCoordinates)
        placement = PlacementCheck(fixCoordinates: options.fixCoordinates)
        networkPatterns = options.mapping?.networkPatterns.flatMap(NetworkPatternMatcher.init)
    }

    /// Parses the next bytes of the file; returns the events they completed.
    mutating func consume(_ chunk: [UInt8]) throws -> [ParseEvent] {
        if let pendingError { throw pendingError }
        if block.isEmpty && chunk.count == blockSize {  // reads of a block: no copy
            do { return try consumeChunk(chunk) } catch { return try handOverHeldRows(before: error) }
        }
        block.append(contentsOf: chunk)
        var out: [ParseEvent] = []
        var start = 0
        defer { block.removeFirst(min(start, block.count)) }
        do {
            while block.count - start >= blockSize {
                let next = Array(block[start..<(start + blockSize)])
                start += blockSize
                out += try consumeChunk(next)
            }
            return out
        } catch {
            return try handOver(out, before: error)
        }
    }

    /// After an error, what earlier blocks of the same call completed still goes out first; the error comes with the
    /// next call.
    private mutating func handOver(_ completed: [ParseEvent], before error: any Error) throws -> [ParseEvent] {
        guard !completed.isEmpty else { return try handOverHeldRows(before: error) }
        pendingError = error
        if !undecided.isEmpty { decideGrid() }
        return completed + takeEvents()
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
        chunk.withUnsafeBufferPointer {
            sha.update($0)
            detector.scan($0)
        }
        if !started {
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
        var early: [ParseEvent] = []
        do {
            if !block.isEmpty {
                let last = block
                block = []
                early = try consumeChunk(last)
            }
            return early + (try finishFile())
        } catch {
            return try handOver(early, before: error)
        }
    }

    private mutating func finishFile() throws -> [ParseEvent] {
        if !started {
            guard !head.isEmpty else { throw ImportError.csv(file: fileName, .emptyFile) }
            try start()
        }
        detector.finish()
        if geojson != nil { return try finishGeoJSON() }
        do {
            var t = tokenizer!
            tokenizer = nil  // keep the tokenizer uniquely referenced while it runs
            defer { tokenizer = t }
            try t.finish { record in try self.handle(record) }
        } catch let error as CSVError { throw ImportError.csv(file: fileName, error) }
        if fields == nil { throw ImportError.csv(file: fileName, .emptyFile) }
        if !gridDecided { decideGrid() }
        var out = takeEvents()
        let delimiter = tokenizer.map { Self.shown($0.delimiter) } ?? ","
        out.append(
            .finished(
                ParsedFile(
                    bytesRead: bytesRead, sha256: sha.finalizeHex(), encoding: detector.reportedName,
                    mixedEncoding: detector.isMixed, hadByteOrderMark: sawBOM, delimiter: delimiter,
                    fileGridDecimals: fileGrid, format: "csv")))
        return out
    }

    private mutating func finishGeoJSON() throws -> [ParseEvent] {
        do { try geojson!.splitter.finish() } catch let error as GeoJSONError { throw ImportError.geojson(file: fileName, error) }
        if !gridDecided { decideGrid() }
        var out = takeEvents()
        out.append(
            .finished(
                ParsedFile(
                    bytesRead: bytesRead, sha256: sha.finalizeHex(), encoding: detector.reportedName,
                    mixedEncoding: detector.isMixed, hadByteOrderMark: sawBOM, delimiter: "",
                    fileGridDecimals: fileGrid, format: geojson!.splitter.shape.rawValue,
                    attribution: geojson!.sawOSMElement ? GeoJSONInput.openStreetMapAttribution : nil)))
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
        if let what = FileSignature.describe(body) { throw ImportError.csv(file: fileName, .notText(looksLike: what)) }
        if let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == 0x1E
        {
            return try startGeoJSON(Array(body))
        }
        let forced = options.delimiter ?? options.mapping?.delimiter.flatMap { $0 == "\\t" ? 0x09 : $0.utf8.first }
        delimiter = forced ?? Self.detectDelimiter(body)
        tokenizer = CSVTokenizer(delimiter: delimiter, maxLineBytes: options.maxLineBytes)
        check.allowDecimalComma = tokenizer!.delimiter != UInt8(ascii: ",")
        let rest = Array(body)
        head = []
        try feed(rest)
    }

    /// Another of the usual delimiters that splits a one-column header, and into how many columns (the most).
    static func betterDelimiter(_ header: String, than chosen: UInt8) -> (delimiter: UInt8, columns: Int)? {
        let bytes = Array(header.utf8)[...]
        let best = detectDelimiter(bytes)
        guard best != chosen else { return nil }
        let count = bytes.filter { $0 == best }.count
        return count > 0 ? (best, count + 1) : nil
    }

    static func shown(_ delimiter: UInt8) -> String { delimiter == 0x09 ? "\\t" : String(UnicodeScalar(delimiter)) }

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
        if geojson != nil { return try feedGeoJSON(bytes) }
        var t = tokenizer!
        tokenizer = nil  // keep the tokenizer uniquely referenced while it runs
        defer { tokenizer = t }
        do {
            try bytes.withUnsafeBufferPointer { buffer in
                try t.feed(buffer) { record in try self.handle(record) }
            }
            // A header past the limit fails now, not after the rest of a line that may be the whole file.
            if fields == nil && t.isSkippingOverlongRecord { throw CSVError.headerTooLong(limit: t.maxLineBytes) }
        } catch let error as CSVError { throw ImportError.csv(file: fileName, error) }
    }

    mutating func handle(_ record: CSVRecord) throws {
        if options.strictUTF8 && !detector.isValidUTF8 { try requireUTF8(record) }
        guard let fields else {
            if record.overlongBytes != nil { throw CSVError.headerTooLong(limit: options.maxLineBytes) }
            return try readHeader(record)
        }
        enqueue(parse(record, fields))
    }

    /// A row in file order: held while the first rows decide the file's grid, then batched.
    mutating func enqueue(_ parsed: ParsedRow) {
        var row = parsed
        if gridDecided {
            place(&row, counted: false)
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
        // The held rows are each other's company: all of them are in the tally before any is judged.
        for row in held { if case .accepted(let c, _) = row.verdict { placement.add(c) } }
        for var row in held {
            place(&row, counted: true)
            markCoarse(&row)
            append(row)
        }
    }

    /// Holds a point without a reference against the file's other rows and the world (`PlacementCheck`); a row taken
    /// after the held ones joins the tally.
    private mutating func place(_ row: inout ParsedRow, counted: Bool) {
        guard case .accepted(let c, _) = row.verdict else { return }
        if row.unreferenced, let verdict = placement.judge(c, counted: counted) { row.verdict = verdict }
        if !counted, case .accepted(let kept, _) = row.verdict { placement.add(kept) }
    }

    /// Coarse: at most two decimals as written, or on the coarse grid most of the file's values sit on.
    private func markCoarse(_ row: inout ParsedRow) {
        guard let value = row.decimals, case .accepted(let c, _) = row.verdict else { return }
        let written = row.writtenDecimals ?? value
        let onFileGrid = fileGrid.map { value <= $0 } == true
        guard written <= CoordinatePrecision.coarseDecimals || onFileGrid else { return }
        // On a file-wide grid, `40.00, -74.00` is a point of that grid, not a whole degree.
        var d = onFileGrid ? value : written
        if onFileGrid, let fileGrid { d = max(d, fileGrid) }
        row.coarse = CoarseCoordinates(decimals: d, errorMeters: CoordinatePrecision.errorMeters(decimals: d, latitude: c.latitude))
    }

    /// `--strict-utf8`: the first field that is not UTF-8 fails the file, with its line. Only records read once the
    /// scanner has seen a bad byte are checked, so a valid file costs nothing.
    private func requireUTF8(_ record: CSVRecord) throws {
        guard let bad = (0..<record.count).first(where: { !EncodingDetector.isUTF8(record.field($0)) }) else { return }
        let column = fields.flatMap { bad < $0.mapping.headers.count ? "'\($0.mapping.headers[bad].clipped(40))'" : nil } ?? "\(bad + 1)."
        throw CSVError.invalidUTF8(line: record.line, column: column)
    }

    private mutating func readHeader(_ record: CSVRecord) throws {
        let headers = (0..<record.count).map { RowFields.clean(record.field($0), decoder: &detector) ?? "" }
        if headers.count == 1, let better = Self.betterDelimiter(headers[0], than: delimiter) {
            throw ImportError.csv(
                file: fileName,
                .headerNotSplit(delimiter: Self.shown(delimiter), better: Self.shown(better.delimiter), columns: better.columns))
        }
        let mapping: ColumnMapping
        do throws(MappingError) {
            mapping = try ColumnMapping(
                headers: headers, file: options.mapping, networkColumn: options.networkColumn,
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
    /// A row the record-level checks reject, or with a value longer than the store keeps, comes back with no values.
    private mutating func parse(_ record: CSVRecord, _ fields: RowFields) -> ParsedRow {
        if let issue = RecordScreen.overlong(record, limit: options.maxLineBytes) { return .rejected(line: record.line, issue) }
        let (shifted, short) = RecordScreen.fieldCount(record, mapping: fields.mapping)
        if let shifted { return .rejected(line: record.line, shifted) }
        if let issue = RecordScreen.nul(record, mapping: fields.mapping, also: nameRowFilter?.index) {
            return .rejected(line: record.line, issue)
        }
        var replaced: [FieldRole] = []
        var row = decode(record, fields, replaced: &replaced)
        if let networkPatterns, let issue = recognise(&row, in: record, fields, networkPatterns) {
            return .rejected(line: record.line, issue)
        }
        for role in FieldRole.allCases {
            if let issue = FieldLengthCheck.check(role, row.value(role), column: fields.column(role)) {
                return .rejected(line: record.line, issue)
            }
        }
        derive(&row)
        if let short { row.warnings.append(short) }
        if !replaced.isEmpty {
            let columns = replaced.map { "'\(fields.column($0).clipped(40))'" }.joined(separator: ", ")
            row.warnings.append(
                RowIssue(
                    .invalidUTF8,
                    "bytes that are not UTF-8 in \(columns), replaced with U+FFFD; if the file is "
                        + "not UTF-8, import it with --encoding windows-1252 (or latin-1)"))
        }
        return row
    }

    private mutating func decode(_ record: CSVRecord, _ fields: RowFields, replaced: inout [FieldRole]) -> ParsedRow {
        func value(_ role: FieldRole) -> String? {
            let text = fields.value(role, in: record, decoder: &detector)
            if detector.takeReplaced() { replaced.append(role) }
            return text
        }
        let region = value(.region)
        let country = value(.country)
        let latitude = value(.latitude)
        let longitude = value(.longitude)
        let (verdict, referenced) = check.judge(latitude: latitude ?? "", longitude: longitude ?? "", region: region, country: country)
        var row = ParsedRow(line: record.line, verdict: verdict, region: region, country: country)
        if case .accepted = verdict, !referenced { row.unreferenced = true }
        switch verdict {
        case .accepted(let c, _):
            row.decimals = max(CoordinatePrecision.decimals(c.latitude), CoordinatePrecision.decimals(c.longitude))
            row.writtenDecimals = max(
                CoordinatePrecision.rowDecimals(text: latitude ?? "", value: c.latitude),
                CoordinatePrecision.rowDecimals(text: longitude ?? "", value: c.longitude))
        case .rejected(.missingCoordinates, _) where options.geocoding != nil:
            break  // a geocoder may place it: read the rest of the row
        case .rejected:
            row.id = value(.id)
            return row
        }
        if options.readsNetworkColumn {
            row.brandWikidata = value(.brandWikidata)
            row.network = value(.network)
            if row.network != nil {
                row.networkName = value(.networkName)
                if let filter = nameRowFilter, row.networkName != nil {
                    row.namesNetwork = RowFields.clean(record.field(filter.index), decoder: &detector) == filter.value
                }
            }
        }
        row.address = value(.address)
        row.name = value(.name)
        var postal = value(.postalCode)
        if postal == nil, !fields.has(.postalCode), let address = row.address { postal = PostalCode.zipInAddress(address) }
        let isUS = country.map(USRegions.isUnitedStates) ?? (region.flatMap(USRegions.region) != nil)
        if isUS, let p = postal, let fixed = PostalCode.restoredZip(p) {
            row.zipBeforeRestoring = p
            postal = fixed
        }
        row.postalCode = postal
        row.id = value(.id)
        row.city = value(.city)
        row.radius = value(.radius)
        row.venueRadius = value(.venueRadius)
        row.openingHours = value(.openingHours)
        if row.openingHours == nil, let weekly = fields.mapping.weeklyHours {
            row.openingHours = weekly.openingHours { RowFields.clean(record.field($0), decoder: &detector) }
        }
        return row
    }

    /// A mapping file's `network_patterns` give the row its network from the first value a rule matches; the rule's
    /// network then decides, over a `brand:wikidata` the row may carry. An unmatched row is rejected when the rules
    /// say so.
    private mutating func recognise(
        _ row: inout ParsedRow, in record: CSVRecord, _ fields: RowFields, _ patterns: NetworkPatternMatcher
    ) -> RowIssue? {
        let values = fields.mapping.patternColumns.compactMap { RowFields.clean(record.field($0), decoder: &detector) }
        switch patterns.network(for: values, budget: &patternBudget) {
        case .matched(let network):
            row.network = network
            row.brandWikidata = nil
            return nil
        case .cutOff(let rule, let value, let budgetSpent):
            // Never a silent no-match: the row's network is unknown, so it is not imported under a guess.
            let why =
                budgetSpent
                ? "the import's network_patterns took their \(patternBudget.perImport) budget"
                : "network_patterns rule \(rule) ran past \(patternBudget.perValue) on '\(value.clipped(40))'"
            return RowIssue(.patternTimeout, why + "; simplify the pattern (docs/importing.md)")
        case .unmatched: break
        }
        guard patterns.rejectsUnmatched else { return nil }
        let read = fields.mapping.patternColumns.map { "'\(fields.mapping.headers[$0].clipped(40))'" }.joined(separator: ", ")
        let shown = values.first.map { " ('\($0.clipped(40))')" } ?? ""
        return RowIssue(.unmatchedNetwork, "no network_patterns rule matches \(read)\(shown)")
    }

    /// What a row's values imply: the id derived from them when the file has none, and the geocoder's query.
    private func derive(_ row: inout ParsedRow) {
        var coordinate: Coordinate?
        switch row.verdict {
        case .accepted(let c, _): coordinate = c
        case .rejected(.missingCoordinates, _) where options.geocoding != nil: break
        case .rejected: return  // only its id was read, for the log
        }
        if row.id == nil {
            // From the file's own point, before any geocoding moves it, and never from a name (see `StableId`).
            row.derivedId =
                coordinate.map { StableId.derive(address: row.address, latitude: $0.latitude, longitude: $0.longitude) }
                ?? StableId.derive(address: row.address, city: row.city, postalCode: row.postalCode)
        }
        if let geocoding = options.geocoding {
            row.addressQuery = AddressQuery(
                amenity: geocoding.searchByName ? row.name : nil, street: row.address, city: row.city,
                state: row.region, postalCode: row.postalCode, country: row.country)
        }
    }
}
