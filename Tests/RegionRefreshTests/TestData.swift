import Foundation
import Geo
import LocationStore
import TestSupport

/// Minimal RFC 4180 field splitter for reading the test material (quoted fields with commas and doubled quotes).
func csvRows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var it = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let c = pending ?? it.next() {
        pending = nil
        if quoted {
            if c == "\"" {
                if let n = it.next() {
                    if n == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        pending = n
                    }
                } else {
                    quoted = false
                }
            } else {
                field.unicodeScalars.append(c)
            }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            row.append(field)
            field = ""
        } else if c == "\n" || c == "\r" {
            if c == "\r", let n = it.next(), n != "\n" { pending = n }
            row.append(field)
            field = ""
            rows.append(row)
            row = []
        } else {
            field.unicodeScalars.append(c)
        }
    }
    if !field.isEmpty || !row.isEmpty {
        row.append(field)
        rows.append(row)
    }
    return rows
}

/// Real chain locations from the shared datasets: fast-food brands (a network per brand slug), Chipotle, Costco, Target.
/// Rows whose coordinates are invalid are skipped; sign-flipped ones are kept as they are (they are real data).
func realChainLocations() throws -> (locations: [Location], networks: [Network]) {
    let root = try SharedDatasets.url("")
    var locations: [Location] = []
    var networks: [String: Network] = [:]
    func add(_ network: String, _ category: String, _ ext: String, _ name: String, _ lat: String, _ lon: String) {
        guard let la = Double(lat.trimmingCharacters(in: .whitespaces)), let lo = Double(lon.trimmingCharacters(in: .whitespaces)),
            let c = try? Coordinate(latitude: la, longitude: lo)
        else { return }
        if networks[network] == nil { networks[network] = Network(id: network, name: network, category: category) }
        locations.append(Location(networkId: network, externalId: ext, name: name, coordinate: c))
    }
    let fast = try String(contentsOf: root.appendingPathComponent("chain-fastfood-us-datafiniti/FastFoodRestaurants.csv"), encoding: .utf8)
    for (i, r) in csvRows(fast).enumerated() where i > 0 && r.count >= 7 {
        add(Network.slug(r[6]), "fast-food", "ff\(i)", r[6], r[4], r[5])
    }
    let chipotle = try String(contentsOf: root.appendingPathComponent("chain-chipotle-us/chipotle_stores.csv"), encoding: .utf8)
    for (i, r) in csvRows(chipotle).enumerated() where i > 0 && r.count >= 5 { add("chipotle", "fast-food", "c\(i)", "Chipotle \(r[1])", r[3], r[4]) }
    let costco = try String(contentsOf: root.appendingPathComponent("chain-costco-us/costcos-geocoded.csv"), encoding: .utf8)
    for (i, r) in csvRows(costco).enumerated() where i > 0 && r.count >= 6 { add("costco", "wholesale", "w\(i)", "Costco \(r[1])", r[4], r[5]) }
    let targetData = try Data(contentsOf: root.appendingPathComponent("chain-target-us/target.csv"))
    let target = String(decoding: targetData.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    let rows = csvRows(target)
    if let header = rows.first, let la = header.firstIndex(of: "Address.Latitude"), let lo = header.firstIndex(of: "Address.Longitude"),
        let id = header.firstIndex(of: "ID"), let name = header.firstIndex(of: "Name")
    {
        for r in rows.dropFirst() where r.count > max(la, lo) { add("target", "grocery", r[id], "Target \(r[name])", r[la], r[lo]) }
    }
    return (locations, networks.values.sorted { $0.id < $1.id })
}
