import ChainImport
import Foundation
import Geo

/// A deterministic chain CSV of any size, for benchmarks and crash tests: the same seed and row
/// count give the same bytes on every machine. Rows are valid (each point inside the bounding box
/// of the state it names), spread over a few brands, with quoted addresses containing commas.
/// As `.geojsonseq` the same rows are GeoJSON features (RFC 8142) with OpenStreetMap keys, for comparing the two imports.
public struct SyntheticChainCSV: Sendable {
    public var rows: Int
    public var seed: UInt64
    public var format = Format.csv

    public enum Format: String, Sendable { case csv, geojsonseq }
    public static let header = "store_id,brand,name,address,city,state,zip,latitude,longitude\n"
    static let brands = ["Acme Market", "Blue Bottle Pantry", "Cornerstone Pharmacy", "Delta Coffee", "Evergreen Books"]
    static let streets = ["Main St", "Oak Ave", "Maple Dr", "Washington Blvd", "Park Rd", "Lake Shore Dr", "Elm St", "2nd Ave"]

    public init(rows: Int, seed: UInt64 = 42) {
        self.rows = rows
        self.seed = seed
    }

    /// Writes the file in 1 MiB pieces; returns its size in bytes.
    @discardableResult
    public func write(to path: String) throws -> Int64 {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ImportError.unreadableFile(path: path, reason: "cannot create")
        }
        defer { try? handle.close() }
        var buffer = format == .csv ? Self.header : ""
        var written: Int64 = 0
        var state = SeededRandom(seed: seed)
        let regions = USRegions.all.filter { $0.code.count == 2 && $0.boxes[0].2 < -60 && $0.code != "AK" }
        for i in 0..<rows {
            let region = regions[Int(Self.next(&state) % UInt64(regions.count))]
            let box = region.boxes[0]
            let lat = box.0 + (box.1 - box.0) * Self.unit(&state)
            let lon = box.2 + (box.3 - box.2) * Self.unit(&state)
            let brand = Self.brands[Int(Self.next(&state) % UInt64(Self.brands.count))]
            let street = Self.streets[Int(Self.next(&state) % UInt64(Self.streets.count))]
            let number = 1 + Self.next(&state) % 9999
            let zip = String(format: "%05d", Int(Self.next(&state) % 99_999))
            let (latText, lonText) = (String(format: "%.6f", lat), String(format: "%.6f", lon))
            switch format {
            case .csv:
                buffer +=
                    "\(i + 1),\(brand),\(brand) #\(i + 1),\"\(number) \(street), Suite \(i % 50)\",Town \(i % 997),"
                    + "\(region.code),\(zip),\(latText),\(lonText)\n"
            case .geojsonseq:
                buffer +=
                    "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lonText),\(latText)]},"
                    + "\"properties\":{\"ref\":\"\(i + 1)\",\"brand\":\"\(brand)\",\"name\":\"\(brand) #\(i + 1)\","
                    + "\"addr:full\":\"\(number) \(street), Suite \(i % 50)\",\"addr:city\":\"Town \(i % 997)\","
                    + "\"addr:state\":\"\(region.code)\",\"addr:postcode\":\"\(zip)\"}}\n"
            }
            if buffer.utf8.count >= 1 << 20 {
                handle.write(Data(buffer.utf8))
                written += Int64(buffer.utf8.count)
                buffer = ""
            }
        }
        handle.write(Data(buffer.utf8))
        return written + Int64(buffer.utf8.count)
    }

    /// SeededRandom (SplitMix64): identical everywhere, unlike the system generator.
    static func next(_ state: inout SeededRandom) -> UInt64 { state.next() }

    static func unit(_ state: inout SeededRandom) -> Double { Double(next(&state) >> 11) / Double(1 << 53) }
}
