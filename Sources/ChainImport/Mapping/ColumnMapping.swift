import Foundation

/// Which column (or columns) of a file holds each role, found from the header.
public struct ColumnMapping: Sendable, Equatable {
    /// The header as found (surrounding spaces trimmed).
    public let headers: [String]
    /// Column indexes per role; several indexes are joined with `-` (composite ids).
    public let columns: [FieldRole: [Int]]

    public func indexes(_ role: FieldRole) -> [Int]? { columns[role] }

    /// Role → header names, for the report.
    public var described: [String: String] {
        Dictionary(uniqueKeysWithValues: columns.map { role, idx in (role.rawValue, idx.map { headers[$0] }.joined(separator: " + ")) })
    }

    /// `"Address.Latitude "` → `"addresslatitude"`: case, spaces and punctuation do not matter.
    static func normalise(_ header: some StringProtocol) -> String {
        String(header.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
    }

    /// Guesses the columns from the header, then applies the mapping file and the explicit
    /// network columns, which always win. Refuses a header without latitude and longitude, unless the import
    /// geocodes and the header has an address to geocode.
    public init(headers rawHeaders: [String], file: MappingFile? = nil, networkColumn: String? = nil,
                networkNameColumn: String? = nil, geocoding: Bool = false) throws(MappingError) {
        let headers = rawHeaders.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        self.headers = headers
        let full = headers.map { Self.normalise($0) }
        // `Address.Latitude`: the last dotted component is a second, weaker name for the column.
        let last = headers.map { Self.normalise($0.split(separator: ".").last ?? "") }
        var columns: [FieldRole: [Int]] = [:]
        var taken = Set<Int>()

        if let a = full.firstIndex(of: "fscskey"), let b = full.firstIndex(of: "fscsseq") {
            // IMLS outlet files: FSCSKEY is the library system, FSCS_SEQ the outlet within it.
            columns[.id] = [a, b]
        }
        for role in FieldRole.allCases where columns[role] == nil {
            let names = role.synonyms
            let found = names.lazy.compactMap { name in full.indices.first { full[$0] == name && !taken.contains($0) } }.first
                ?? names.lazy.compactMap { name in last.indices.first { last[$0] == name && !taken.contains($0) } }.first
            if let found {
                columns[role] = [found]
                taken.insert(found)
            }
        }

        func locate(_ name: String, role: String) throws(MappingError) -> Int {
            let key = Self.normalise(name)
            let wanted = name.trimmingCharacters(in: .whitespaces)
            if let i = headers.firstIndex(of: wanted) ?? headers.firstIndex(where: { $0.caseInsensitiveCompare(wanted) == .orderedSame })
                ?? full.firstIndex(of: key) {
                return i
            }
            throw .unknownColumn(role: role, column: name, headers: headers)
        }
        for (key, spec) in file?.columns ?? [:] {
            guard let role = FieldRole(rawValue: key) else { continue }
            switch spec {
            case .none: columns[role] = nil
            case .columns(let names):
                var idx: [Int] = []
                for name in names { idx.append(try locate(name, role: key)) }
                columns[role] = idx
            }
        }
        if let networkColumn { columns[.network] = [try locate(networkColumn, role: "network")] }
        if let networkNameColumn { columns[.networkName] = [try locate(networkNameColumn, role: "network name")] }
        if columns[.latitude] == nil || columns[.longitude] == nil {
            guard geocoding else { throw .noCoordinateColumns(headers: headers) }
            guard columns[.address] != nil || columns[.city] != nil || columns[.postalCode] != nil else {
                throw .nothingToGeocode(headers: headers)
            }
            // Half a pair is no coordinate: every row goes to the geocoder.
            columns[.latitude] = nil
            columns[.longitude] = nil
        }
        self.columns = columns
    }
}
