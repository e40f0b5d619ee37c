import Foundation
import LocationStore

/// Which column (or columns) of a file holds each role, found from the header.
package struct ColumnMapping: Sendable, Equatable {
    /// The header as found (surrounding spaces trimmed).
    package let headers: [String]
    /// Column indexes per role; several indexes are joined with `-` (composite ids).
    package let columns: [FieldRole: [Int]]
    /// Opening hours in columns per day group (Target's), when the file has no `opening_hours` column and the mapping
    /// file does not name one.
    let weeklyHours: WeeklyHoursColumns?
    /// The columns a mapping file's `network_patterns` are tried on, in turn (`NetworkPatterns.match`).
    let patternColumns: [Int]

    package func indexes(_ role: FieldRole) -> [Int]? { columns[role] }

    /// Role → header names, for the report.
    package var described: [String: String] {
        var roles = Dictionary(uniqueKeysWithValues: columns.map { role, idx in (role.rawValue, idx.map { headers[$0] }.joined(separator: " + ")) })
        if let weeklyHours { roles[FieldRole.openingHours.rawValue] = weeklyHours.described(headers: headers) }
        return roles
    }

    /// A mapping the caller decided (a GeoJSON import's properties), with no header names to guess from.
    init(headers: [String], columns: [FieldRole: [Int]], patternColumns: [Int] = []) {
        self.headers = headers
        self.columns = columns
        self.weeklyHours = nil
        self.patternColumns = patternColumns
    }

    /// `"Address.Latitude "` → `"addresslatitude"`: case, spaces and punctuation do not matter.
    static func normalise(_ header: some StringProtocol) -> String { TextKey.lettersAndDigits(header) }

    /// Guesses the columns from the header, then applies the mapping file and the explicit
    /// network columns, which always win. Refuses a header without latitude and longitude, unless the import
    /// geocodes and the header has an address to geocode; and one where two columns could be the latitude (or the
    /// longitude) and no mapping file says which, since taking the first would import the other's rows wrong in silence.
    package init(
        headers rawHeaders: [String], file: MappingFile? = nil, networkColumn: String? = nil,
        networkNameColumn: String? = nil, geocoding: Bool = false
    ) throws(MappingError) {
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
        var ambiguous: [FieldRole: [Int]] = [:]
        for role in FieldRole.allCases where columns[role] == nil {
            let names = role.synonyms
            let found =
                names.lazy.compactMap { name in full.indices.first { full[$0] == name && !taken.contains($0) } }.first
                ?? names.lazy.compactMap { name in last.indices.first { last[$0] == name && !taken.contains($0) } }.first
            if let found {
                columns[role] = [found]
                taken.insert(found)
            }
            if role == .latitude || role == .longitude {
                let candidates = headers.indices.filter { names.contains(full[$0]) || names.contains(last[$0]) }
                if candidates.count > 1 { ambiguous[role] = candidates }
            }
        }

        func locate(_ name: String, role: String) throws(MappingError) -> Int {
            try Self.locate(name, role: role, headers: headers, normalised: full)
        }
        for (key, spec) in file?.columns ?? [:] {
            guard let role = FieldRole(rawValue: key) else { continue }
            ambiguous[role] = nil  // the file says which
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
        for role in [FieldRole.latitude, .longitude] {
            if let candidates = ambiguous[role] {
                let sameName = Set(candidates.map { headers[$0] }).count < candidates.count
                throw .ambiguousColumns(role: role.rawValue, columns: candidates.map { Self.numbered(headers, $0) }, byNumber: sameName)
            }
        }
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
        if let patterns = file?.networkPatterns {
            if let names = patterns.match {
                var idx: [Int] = []
                for name in names { idx.append(try locate(name, role: "network pattern")) }
                patternColumns = idx
            } else {
                guard let network = columns[.network] else { throw .noNetwork(headers: headers) }
                patternColumns = network
            }
        } else {
            patternColumns = []
        }
        let hoursNamed = columns[.openingHours] != nil || file?.columns[FieldRole.openingHours.rawValue] != nil
        self.weeklyHours = hoursNamed ? nil : WeeklyHoursColumns(headers: headers)
    }

    /// A header name (exact, then ignoring case, then normalised), or `#N` for the N-th column (1-based), which is
    /// how a mapping file picks one of two columns with the same name.
    static func locate(_ name: String, role: String, headers: [String], normalised full: [String]) throws(MappingError) -> Int {
        let wanted = name.trimmingCharacters(in: .whitespaces)
        if wanted.hasPrefix("#"), let n = Int(wanted.dropFirst()) {
            guard headers.indices.contains(n - 1) else { throw .unknownColumn(role: role, column: name, headers: headers) }
            return n - 1
        }
        let key = Self.normalise(name)
        for matches in [
            headers.indices.filter { headers[$0] == wanted },
            headers.indices.filter { headers[$0].caseInsensitiveCompare(wanted) == .orderedSame },
            full.indices.filter { full[$0] == key },
        ] where !matches.isEmpty {
            guard matches.count == 1 else {
                throw .ambiguousColumns(role: role, columns: matches.map { Self.numbered(headers, $0) }, byNumber: true)
            }
            return matches[0]
        }
        throw .unknownColumn(role: role, column: name, headers: headers)
    }

    /// `'lat' (column 3)`, for messages.
    static func numbered(_ headers: [String], _ index: Int) -> String {
        "'\(headers[index].clipped(40))' (column \(index + 1))"
    }
}
