import Geo

/// Deterministic ids for rows that come without one.
///
/// FNV-1a 64 over the row's own content — its normalised address and its coordinates rounded to 1e-5° (≈ 1 m), or
/// for a row that a geocoder places, its address, city and postal code: the same row gets the same id on every
/// machine and every run (Swift's `Hasher` is seeded per process, so it cannot be used), and re-importing the file
/// finds its rows again.
///
/// A name is never part of the id. Until schema version 3 it was, and a file without a name column took its network's
/// display name as every row's name: renaming the network gave the same rows new ids, and a re-import doubled them.
/// Two rows of one network at the same point and address are one place to a phone; without an id column of their
/// own they are reported as repeats (`duplicate_row`).
public enum StableId {
    public static func derive(address: String?, latitude: Double, longitude: Double) -> String {
        var hash = Hash()
        hash.mix(exact: "v3")
        hash.mix(folded: address ?? "")
        hash.mix(exact: String(Int64((latitude * 100_000).rounded())))
        hash.mix(exact: String(Int64((longitude * 100_000).rounded())))
        return hash.id
    }

    /// For a row without coordinates (a geocoder places it): so that the id does not move when the geocoder's
    /// answer does.
    public static func derive(address: String?, city: String?, postalCode: String?) -> String {
        var hash = Hash()
        hash.mix(exact: "v3 geocoded")
        for part in [address ?? "", city ?? "", postalCode ?? ""] { hash.mix(folded: part) }
        return hash.id
    }

    /// Whether `externalId` has the shape of a derived id (`h` and 16 hex digits).
    public static func looksDerived(_ externalId: String) -> Bool {
        let u = Array(externalId.utf8)
        return u.count == 17 && u[0] == UInt8(ascii: "h")
            && u.dropFirst().allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The rules before schema version 3, with the name first: the migration recognises the ids they made.
    enum Legacy {
        static func derive(name: String, address: String?, latitude: Double, longitude: Double) -> String {
            var hash = Hash()
            hash.mix(folded: name)
            hash.mix(folded: address ?? "")
            hash.mix(exact: String(Int64((latitude * 100_000).rounded())))
            hash.mix(exact: String(Int64((longitude * 100_000).rounded())))
            return hash.id
        }

        static func derive(name: String, address: String?, city: String?, postalCode: String?) -> String {
            var hash = Hash()
            for part in [name, address ?? "", city ?? "", postalCode ?? ""] { hash.mix(folded: part) }
            hash.mix(exact: "geocoded")
            return hash.id
        }
    }

    private struct Hash {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        /// Case, spacing and punctuation differences ("St." / "St") must not change the id.
        mutating func mix(folded text: String) {
            for scalar in text.lowercased().unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                mix(String(scalar).utf8)
            }
            separate()
        }

        mutating func mix(exact text: String) {
            mix(text.utf8)
            separate()
        }

        private mutating func mix(_ bytes: String.UTF8View) {
            for byte in bytes {
                value ^= UInt64(byte)
                value = value &* 0x0000_0100_0000_01B3
            }
        }

        private mutating func separate() {
            value ^= 0x1F
            value = value &* 0x0000_0100_0000_01B3
        }

        var id: String {
            let hex = String(value, radix: 16)
            return "h" + String(repeating: "0", count: 16 - hex.count) + hex
        }
    }
}

/// One location whose id the schema-3 migration may change: what the legacy rules hashed.
public struct LegacyKeyedLocation: Sendable {
    public var rowKey: Int64
    public var networkId: String
    public var externalId: String
    public var name: String
    public var address: String?
    public var city: String?
    public var postalCode: String?
    public var latitude: Double
    public var longitude: Double
    /// The file's own point when a geocoder moved the location.
    public var original: Coordinate?
    public var sourceImportId: Int64?

    public init(
        rowKey: Int64, networkId: String, externalId: String, name: String, address: String?, city: String?, postalCode: String?,
        latitude: Double, longitude: Double, original: Coordinate?, sourceImportId: Int64?
    ) {
        self.rowKey = rowKey
        self.networkId = networkId
        self.externalId = externalId
        self.name = name
        self.address = address
        self.city = city
        self.postalCode = postalCode
        self.latitude = latitude
        self.longitude = longitude
        self.original = original
        self.sourceImportId = sourceImportId
    }

    /// The id today's rules give this location, when its id is one a legacy rule derived (else nil: it came from a
    /// file's id column, or from content the store no longer holds, and stays). A legacy id hashed the file's point,
    /// or the geocoded one for a row without a name; today's hashes the file's point.
    public var rekeyed: String? {
        guard StableId.looksDerived(externalId) else { return nil }
        let filePoint = original ?? Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        for point in [filePoint, Coordinate(uncheckedLatitude: latitude, longitude: longitude)]
        where StableId.Legacy.derive(name: name, address: address, latitude: point.latitude, longitude: point.longitude) == externalId {
            return StableId.derive(address: address, latitude: filePoint.latitude, longitude: filePoint.longitude)
        }
        if StableId.Legacy.derive(name: name, address: address, city: city, postalCode: postalCode) == externalId {
            return StableId.derive(address: address, city: city, postalCode: postalCode)
        }
        return nil
    }
}

/// The plan of the schema-3 migration: new ids for the locations a legacy rule keyed, and which locations to drop
/// because they now share an id with another of their network (the doubles a rename and re-import made: the one
/// written last stays).
public struct RekeyPlan: Sendable {
    public struct Rename: Sendable {
        public var rowKey: Int64
        public var externalId: String
        public var id: String
    }

    public private(set) var renames: [Rename] = []
    public private(set) var drops: [Int64] = []

    /// `candidates`: every location whose external id looks derived (no other id can meet a derived one).
    public init(_ candidates: [LegacyKeyedLocation]) {
        // Newest first, so that of several locations that meet at one id the newest keeps it.
        let ordered = candidates.sorted { ($0.sourceImportId ?? -1, $0.rowKey) > ($1.sourceImportId ?? -1, $1.rowKey) }
        var taken = Set<String>()
        for c in ordered {
            let external = c.rekeyed ?? c.externalId
            let id = Location.makeId(networkId: c.networkId, externalId: external)
            if !taken.insert(id).inserted {
                drops.append(c.rowKey)
            } else if external != c.externalId {
                renames.append(Rename(rowKey: c.rowKey, externalId: external, id: id))
            }
        }
    }
}
