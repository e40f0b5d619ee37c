import Foundation
import OnCueContract

/// A JSON file that says which columns mean what, overriding the header-name guessing.
///
/// ```json
/// {
///   "columns": { "id": ["FSCSKEY", "FSCS_SEQ"], "name": "LIBNAME", "latitude": "LATITUDE",
///                "longitude": "LONGITUD", "network": "FSCSKEY", "network_name": "LIBNAME" },
///   "delimiter": ",", "encoding": "windows-1252", "network": "costco"
/// }
/// ```
/// A column is a header name (matched ignoring case and surrounding spaces) or a list of them,
/// joined with `-` (composite ids). `null` or `""` switches a guessed role off. `network_patterns` recognises chains
/// by how their stores are named (`NetworkPatterns`).
package struct MappingFile: Sendable, Codable, Equatable {
    package var columns: [String: ColumnSpec]
    package var delimiter: String?
    package var encoding: String?
    /// One network for every row (same as `--network`).
    package var network: String?
    package var networkPatterns: NetworkPatterns?

    package init(
        columns: [String: ColumnSpec] = [:], delimiter: String? = nil, encoding: String? = nil, network: String? = nil,
        networkPatterns: NetworkPatterns? = nil
    ) {
        self.columns = columns
        self.delimiter = delimiter
        self.encoding = encoding
        self.network = network
        self.networkPatterns = networkPatterns
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case columns, delimiter, encoding, network
        case networkPatterns = "network_patterns"
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        columns = try c.decodeIfPresent([String: ColumnSpec].self, forKey: .columns) ?? [:]
        delimiter = try c.decodeIfPresent(String.self, forKey: .delimiter)
        encoding = try c.decodeIfPresent(String.self, forKey: .encoding)
        network = try c.decodeIfPresent(String.self, forKey: .network)
        networkPatterns = try c.decodeIfPresent(NetworkPatterns.self, forKey: .networkPatterns)
    }

    /// One header name, several (joined), or none.
    package enum ColumnSpec: Sendable, Codable, Equatable {
        case none
        case columns([String])

        package init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .none
            } else if let one = try? c.decode(String.self) {
                self = one.isEmpty ? .none : .columns([one])
            } else {
                self = .columns(try c.decode([String].self))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .none: try c.encodeNil()
            case .columns(let names) where names.count == 1: try c.encode(names[0])
            case .columns(let names): try c.encode(names)
            }
        }
    }

    package static func load(path: String) throws -> MappingFile {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw MappingError.unreadableMappingFile(path: path, reason: error.localizedDescription)
        }
        return try decode(data, source: path)
    }

    /// A mapping from its JSON; `source` (a path, an upload's part) names it in errors.
    package static func decode(_ data: Data, source path: String) throws -> MappingFile {
        let file: MappingFile
        do { file = try JSONDecoder().decode(MappingFile.self, from: data) } catch {
            throw MappingError.unreadableMappingFile(path: path, reason: "not a mapping JSON object (\(error))")
        }
        // A misspelt key would be ignored and the columns guessed instead: `colums` would import the file as if it
        // had no mapping at all.
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let known = CodingKeys.allCases.map(\.rawValue)
            if let key = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw MappingError.unreadableMappingFile(
                    path: path, reason: Self.unknown("key", key, known: known))
            }
        }
        let roles = FieldRole.allCases.map(\.rawValue)
        if let role = file.columns.keys.sorted().first(where: { FieldRole(rawValue: $0) == nil }) {
            throw MappingError.unreadableMappingFile(path: path, reason: Self.unknown("role in \"columns\"", role, known: roles))
        }
        if let problem = file.networkPatterns?.problem() {
            throw MappingError.unreadableMappingFile(path: path, reason: problem)
        }
        return file
    }

    /// "unknown key 'colums' (did you mean 'columns'?); known: columns, delimiter, …"
    private static func unknown(_ what: String, _ name: String, known: [String]) -> String {
        let hint = FieldNames.nearest(name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown \(what) '\(name.clipped(60))'\(hint); known: \(known.joined(separator: ", "))"
    }
}
