import Foundation
import Geo
import LocationStore

/// A store's locations written out as a file the importer reads back: CSV under the import's column names, or GeoJSON
/// (a FeatureCollection, or RFC 8142 text sequences, one feature per line) whose properties are those names. Importing
/// the export into a fresh store gives the same locations, networks and regions: the same ids, fields and points,
/// coordinates written with the decimals that keep their precision (a precise point gets at least four, a coarse
/// one the few it had, so the import measures the same uncertainty), each network's display name beside its id.
/// Streamed a batch at a time, so its memory stays flat however many locations the store holds.
package struct LocationExport: Sendable {
    package enum Format: String, Sendable, CaseIterable {
        case csv, geojson, geojsonseq
    }

    /// The fields the export writes, in its column order (`LocationField.exportColumn`).
    static let fields = LocationField.all.filter { $0.exportColumn != nil }

    /// The network's display name, beside its id: not a field of the location, but what lets an import into a fresh
    /// store name the network as this one does.
    static let networkName = "network_name"

    /// The columns (CSV) and properties (GeoJSON), named as the importer finds them without a mapping.
    package static let columns = fields.flatMap { field in
        [field.exportColumn ?? field.name] + (field.name == LocationField.network.name ? [networkName] : [])
    }

    package let format: Format
    /// The networks to write (ids); all when nil.
    package let networks: Set<String>?
    /// Locations read from the store per batch.
    package var batchSize = 10_000

    package init(format: Format, networks: Set<String>? = nil) {
        self.format = format
        self.networks = networks
    }

    /// Writes the export through `write` (called with text to append, a batch at a time); returns how many locations
    /// were written. `progress` hears the count after each batch.
    package func run(
        from store: any LocationStore, write: (String) throws -> Void, progress: ((Int) -> Void)? = nil
    ) async throws -> Int {
        let names = Dictionary(try await store.networks().map { ($0.network.id, $0.network.name) }, uniquingKeysWith: { a, _ in a })
        var count = 0
        switch format {
        case .csv: try write(Self.columns.joined(separator: ",") + "\n")
        case .geojson: try write("{\"type\":\"FeatureCollection\",\"features\":[\n")
        case .geojsonseq: break
        }
        try await store.forEachLocation(batchSize: batchSize) { batch in
            var text = ""
            for location in batch where networks?.contains(location.networkId) ?? true {
                let values = Self.values(location, networkName: names[location.networkId])
                switch format {
                case .csv: text += values.map { Self.csvField($0.text ?? "") }.joined(separator: ",") + "\n"
                case .geojson: text += (count == 0 ? "" : ",\n") + Self.feature(location, values)
                case .geojsonseq: text += "\u{1E}" + Self.feature(location, values) + "\n"
                }
                count += 1
            }
            if !text.isEmpty { try write(text) }
            progress?(count)
        }
        if format == .geojson { try write("\n]}\n") }
        return count
    }

    /// A value as written: text, and whether it is a number (GeoJSON writes those unquoted).
    struct Value {
        var text: String?
        var isNumber = false
    }

    /// The location's values in `columns`' order.
    static func values(_ l: Location, networkName: String?) -> [Value] {
        let precise = l.positionUncertaintyMeters == nil
        return fields.flatMap { field in
            let value: Value =
                switch field.read(l) {
                // The point's decimals are its precision (`coordinate`); the other numbers are as the import reads them.
                case .number(let n) where isCoordinate(field): Value(text: coordinate(n, precise: precise), isNumber: true)
                // An empty text is one the location has none of (a name left blank): left out, as a missing one is.
                case .text(let text): Value(text: text.isEmpty ? nil : text)
                case let number?: Value(text: number.csvText, isNumber: true)
                case nil: Value(text: nil)
                }
            return [value] + (field.name == LocationField.network.name ? [Value(text: networkName)] : [])
        }
    }

    /// The point's two coordinates: written with their precision, and in GeoJSON as the geometry.
    static func isCoordinate(_ field: LocationField) -> Bool {
        field.name == LocationField.latitude.name || field.name == LocationField.longitude.name
    }

    /// A coordinate as text: the shortest that reads back as the same number, padded to at least four decimals for a
    /// point the store holds as precise (`40.73` would read as two decimals, a coarse point).
    static func coordinate(_ value: Double, precise: Bool) -> String {
        var text = "\(value)"
        if text.contains("e") { text = String(format: "%.7f", value) }
        guard precise else { return text }
        let decimals = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        if decimals == 0 && !text.contains(".") { text += "." }
        return text + String(repeating: "0", count: max(0, 4 - decimals))
    }

    /// RFC 4180: quoted when it holds the delimiter, a quote or a line break (or starts or ends with a space the
    /// import would trim).
    static func csvField(_ value: String) -> String {
        let needsQuotes = value.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" } || value.first == " " || value.last == " "
        return needsQuotes ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }

    static func feature(_ l: Location, _ values: [Value]) -> String {
        var properties: [String] = []
        var point: [String: String] = [:]
        for (name, value) in zip(columns, values) {
            guard let text = value.text else { continue }
            if name == LocationField.latitude.exportColumn || name == LocationField.longitude.exportColumn {
                point[name] = text
            } else {
                properties.append("\"\(name)\":" + (value.isNumber ? text : jsonString(text)))
            }
        }
        let lat = point[LocationField.latitude.exportColumn ?? ""] ?? "0"
        let lon = point[LocationField.longitude.exportColumn ?? ""] ?? "0"
        return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{"
            + properties.joined(separator: ",") + "}}"
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
