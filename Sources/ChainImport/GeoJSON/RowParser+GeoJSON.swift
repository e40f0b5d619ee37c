/// The GeoJSON side of `RowParser`: features cut from the stream, parsed, and laid out as records of the roles they
/// fill, which then take the same path as a CSV's rows.
struct GeoJSONInput {
    var splitter: GeoJSONSplitter
    var fields: GeoJSONFields
    /// Reused for every feature, as the CSV tokenizer reuses its record.
    var record = CSVRecord()
    /// Whether a feature was an OpenStreetMap element (osmium's `@type` and `@id`): the import log then credits it.
    var sawOSMElement = false

    static let openStreetMapAttribution = "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)"
}

extension RowParser {
    /// Features larger than this are rejected unread: a building outline is kilobytes, an airport's a few hundred.
    static func maxFeatureBytes(_ options: ImportOptions) -> Int { max(options.maxLineBytes, 16 << 20) }

    mutating func startGeoJSON(_ body: [UInt8]) throws {
        if let forced = options.encoding ?? options.mapping?.encoding.flatMap(TextEncoding.init(name:)), forced != .utf8 {
            throw ImportError.geojson(file: fileName, .notUTF8(forced.rawValue))
        }
        // RFC 7946: GeoJSON is UTF-8; the properties come out of the JSON parser as text already.
        detector = EncodingDetector(forced: .utf8)
        let geoFields = GeoJSONFields(options: options)
        if let index = geoFields.filterIndex, let wanted = options.networkNameWhere?.value { nameRowFilter = (index, wanted) }
        geojson = GeoJSONInput(splitter: GeoJSONSplitter(maxFeatureBytes: Self.maxFeatureBytes(options)), fields: geoFields)
        fields = RowFields(mapping: geoFields.mapping)
        events.append(.header(headers: geoFields.mapping.headers, mapping: geoFields.mapping))
        head = []
        try feedGeoJSON(body)
    }

    mutating func feedGeoJSON(_ bytes: [UInt8]) throws {
        var input = geojson!
        geojson = nil  // keep the splitter uniquely referenced while it runs
        var splitter = input.splitter
        defer {
            input.splitter = splitter
            geojson = input
        }
        do {
            try bytes.withUnsafeBufferPointer { buffer in
                try splitter.feed(buffer) { piece in try self.take(piece, &input) }
            }
        } catch let error as GeoJSONError { throw ImportError.geojson(file: fileName, error) }
    }

    private mutating func take(_ piece: GeoJSONSplitter.Piece, _ input: inout GeoJSONInput) throws {
        switch piece {
        case .value(let bytes, let number):
            switch GeoJSONFeature.decode(bytes) {
            case .success(let feature):
                if !input.sawOSMElement && GeoJSONFields.value(.osmElement, of: feature) != nil { input.sawOSMElement = true }
                input.fields.record(feature, number: number, into: &input.record)
                try handle(input.record)
            case .failure(let rejection):
                enqueue(.rejected(line: number, rejection.issue))
            }
        case .overlong(let bytes, let number):
            enqueue(
                .rejected(
                    line: number,
                    RowIssue(
                        .lineTooLong,
                        "the feature is \(bytes) bytes long, more than the limit of \(Self.maxFeatureBytes(options)) "
                            + "(--max-line-bytes, at least 16 MiB for GeoJSON); skipped")))
        case .notAnObject(let number):
            enqueue(.rejected(line: number, RowIssue(.invalidGeoJSON, "an element of \"features\" that is not a Feature object")))
        }
    }
}
