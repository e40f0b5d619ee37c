/// Cuts a GeoJSON stream into its features without holding the file: a FeatureCollection's `features` array is read
/// element by element, and a sequence (RFC 8142 record separators, or one feature per line as osmium and many tools
/// write it) value by value. Only the feature being read is kept, up to `maxFeatureBytes`; a longer one is read to its
/// end and handed over with its size and no bytes, as the CSV tokenizer does with an overlong line.
///
/// It follows strings, escapes and nesting only, so it costs a pass over the bytes; each feature's own JSON is parsed
/// afterwards (`GeoJSONFeature`), and a syntax error inside one feature rejects that feature alone.
struct GeoJSONSplitter {
    /// One element of the stream, numbered from 1 in file order.
    enum Piece {
        /// A feature's bytes (a JSON value, not yet parsed).
        case value([UInt8], number: Int)
        /// A feature longer than the limit, skipped unread.
        case overlong(bytes: Int64, number: Int)
        /// An element of `features` that is not an object or array (a number, a string, `null`).
        case notAnObject(number: Int)
    }

    /// What the stream turned out to be, for the report.
    enum Shape: String {
        case collection = "geojson"
        case sequence = "geojsonseq"
    }

    let maxFeatureBytes: Int
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var line = 1
    /// Depth of the values that are features: 1 for a top-level object of a sequence (captured whole), 2 inside a
    /// top-level array, 3 inside a collection's `features` array. Nil between top-level values.
    private var featureDepth: Int?
    private var capture: [UInt8] = []
    private var captured: Int64 = 0
    private var capturing = false
    private var inScalarElement = false
    /// Key tracking on the top-level object, to find `"features": [`.
    private var topIsObject = false
    private var expectKey = false
    private var keyBytes: [UInt8] = []
    private var readingKey = false
    private var lastKey: [UInt8] = []
    private var topValues = 0
    private var sawRecordSeparator = false
    private var sawCollection = false
    private(set) var pieces = 0

    init(maxFeatureBytes: Int) { self.maxFeatureBytes = max(1, maxFeatureBytes) }

    var shape: Shape { sawCollection || (topValues <= 1 && !sawRecordSeparator) ? .collection : .sequence }

    private static let features = Array("features".utf8)

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Piece) throws -> Void) throws {
        for b in bytes {
            if b == 0x0A { line += 1 }
            if b == 0x1E {
                // RFC 8142: a record separator starts a new text, whatever came before it; one cut short is handed over
                // as it is, and fails to parse as that feature alone.
                try separator(body)
                continue
            }
            if inString {
                if capturing { append(b) }
                if readingKey && !escaped && b != 0x22 && b != 0x5C { keyBytes.append(b) }
                if escaped {
                    escaped = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                    if readingKey {
                        readingKey = false
                        lastKey = keyBytes
                    }
                }
                continue
            }
            try structural(b, body)
        }
    }

    private mutating func structural(_ b: UInt8, _ body: (Piece) throws -> Void) throws {
        let isSpace = b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
        if depth == 0 {
            if isSpace { return }
            guard b == 0x7B || b == 0x5B else { throw GeoJSONError.notGeoJSON(line: line, found: b) }
            topValues += 1
            topIsObject = b == 0x7B
            expectKey = topIsObject
            lastKey = []
            depth = 1
            // A top-level object is a feature of a sequence until its `features` array shows it is a collection.
            featureDepth = topIsObject ? 1 : 2
            if topIsObject { startCapture(b) }
            return
        }
        if capturing { append(b) }
        if let fd = featureDepth, depth == fd - 1, !capturing {
            try elementStart(b, isSpace: isSpace, body)
            return
        }
        switch b {
        case 0x22:
            inString = true
            if topIsObject && depth == 1 && expectKey {
                readingKey = true
                keyBytes.removeAll(keepingCapacity: true)
            }
        case 0x3A where depth == 1: expectKey = false
        case 0x2C where depth == 1: expectKey = topIsObject
        case 0x7B, 0x5B:
            if depth == 1 && topIsObject && b == 0x5B && lastKey == Self.features && featureDepth == 1 {
                // `"features": [` — a collection: its elements are the features, and the rest of the object is skipped.
                sawCollection = true
                capturing = false
                capture.removeAll(keepingCapacity: true)
                featureDepth = 3
            }
            depth += 1
        case 0x7D, 0x5D:
            depth -= 1
            if capturing && depth == (featureDepth ?? 0) - 1 { try endCapture(body) }
            if depth == 0 { featureDepth = nil }
        default: break
        }
    }

    /// A byte between the elements of the array whose elements are features.
    private mutating func elementStart(_ b: UInt8, isSpace: Bool, _ body: (Piece) throws -> Void) throws {
        switch b {
        case 0x7B, 0x5B:
            depth += 1
            inScalarElement = false
            startCapture(b)
        case 0x5D, 0x7D:
            depth -= 1
            if inScalarElement { try scalarElement(body) }
            if depth == 0 { featureDepth = nil }
            // The end of a collection's `features`: the rest of its object is skipped.
            if depth == 1 && featureDepth == 3 { featureDepth = nil }
        case 0x2C:
            if inScalarElement { try scalarElement(body) }
        case 0x22:
            inScalarElement = true
            inString = true
        default:
            if !isSpace { inScalarElement = true }
        }
    }

    private mutating func separator(_ body: (Piece) throws -> Void) throws {
        sawRecordSeparator = true
        guard depth != 0 || inString else { return }
        if capturing { try endCapture(body) }
        depth = 0
        inString = false
        escaped = false
        readingKey = false
        inScalarElement = false
        featureDepth = nil
    }

    private mutating func scalarElement(_ body: (Piece) throws -> Void) throws {
        inScalarElement = false
        pieces += 1
        try body(.notAnObject(number: pieces))
    }

    private mutating func startCapture(_ first: UInt8) {
        capturing = true
        capture.removeAll(keepingCapacity: true)
        captured = 0
        append(first)
    }

    private mutating func append(_ b: UInt8) {
        captured += 1
        if captured <= maxFeatureBytes { capture.append(b) }
    }

    private mutating func endCapture(_ body: (Piece) throws -> Void) throws {
        capturing = false
        pieces += 1
        if captured > maxFeatureBytes {
            capture = []
            try body(.overlong(bytes: captured, number: pieces))
        } else {
            try body(.value(capture, number: pieces))
        }
        capture.removeAll(keepingCapacity: true)
    }

    /// The end of the stream: a feature or collection still open means the file was cut short.
    mutating func finish() throws {
        guard depth == 0 && !inString else {
            throw GeoJSONError.truncated(line: line, features: pieces, insideCollection: sawCollection)
        }
        if topValues == 0 { throw GeoJSONError.empty }
    }
}
