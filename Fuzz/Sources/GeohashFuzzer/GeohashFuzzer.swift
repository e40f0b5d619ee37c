import FuzzSupport
import Geo

// The geohash decoder (`Geohash.init?(_:)`) against the encoder and the alphabet: a string is accepted exactly
// when it is 1...12 characters of the geohash alphabet (either case), and an accepted cell prints back as the
// lower-cased input, contains its own centre, re-encodes from that centre, and is the reverse neighbour of each
// of its neighbours. The encoder gets the input's first 16 bytes as two doubles, for the same round trip.

private let alphabet = Set("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    checkDecoding(bytes)
    if bytes.count >= 17 { checkEncoding(bytes) }
    return 0
}

private func checkDecoding(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let lowered = bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    let valid = (1...Geohash.maxPrecision).contains(bytes.count) && lowered.allSatisfy(alphabet.contains)
    let cell = Geohash(text)
    require((cell != nil) == valid, "accepted=\(cell != nil) but valid=\(valid) for \(bytes)")
    // The same text reached as a Substring must decode the same.
    require(Geohash(text[...]) == cell, "String and Substring decode differently: \(bytes)")
    guard let cell else { return }
    require(Array(cell.string.utf8) == lowered, "'\(text)' prints back as '\(cell.string)'")
    require(Geohash(precision: cell.precision, interleaved: cell.interleaved) == cell, "interleaved bits do not round-trip: \(cell)")
    let box = cell.box
    let centre = cell.center
    require(
        box.minLatitude < centre.latitude && centre.latitude < box.maxLatitude
            && box.minLongitude < centre.longitude && centre.longitude < box.maxLongitude, "centre \(centre) outside \(box) of \(cell)")
    require(Geohash(centre, precision: cell.precision) == cell, "centre of \(cell) encodes elsewhere")
    for direction in Geohash.Direction.allCases {
        guard let next = cell.neighbor(direction) else {
            require(
                direction.isNorthward ? cell.latIndex == Geohash.rows(cell.precision) - 1 : cell.latIndex == 0,
                "\(cell) has no \(direction) neighbour away from a pole row")
            continue
        }
        require(next.precision == cell.precision && next != cell, "\(direction) neighbour of \(cell) is \(next)")
        require(
            next.neighbor(direction.opposite) == cell,
            "\(direction) then back from \(cell) lands on \(String(describing: next.neighbor(direction.opposite)))")
    }
}

private func checkEncoding(_ bytes: [UInt8]) {
    func double(at offset: Int) -> Double {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
        return Double(bitPattern: bits)
    }
    let lat = double(at: 0)
    let lon = double(at: 8)
    guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else { return }
    let precision = 1 + Int(bytes[16]) % Geohash.maxPrecision
    let cell = Geohash(latitude: lat, longitude: lon, precision: precision)
    require(Geohash(cell.string) == cell, "\(cell) does not decode to itself")
    let box = cell.box
    // Half-open cells, with 90° and 180° in the last row and column.
    let latInside = box.minLatitude <= lat && (lat < box.maxLatitude || (lat == 90 && box.maxLatitude == 90))
    let lonInside = box.minLongitude <= lon && (lon < box.maxLongitude || (lon == 180 && box.maxLongitude == 180))
    require(latInside && lonInside, "(\(lat), \(lon)) encodes to \(cell) whose box is \(box)")
}

extension Geohash.Direction {
    var isNorthward: Bool { self == .north || self == .northEast || self == .northWest }

    var opposite: Geohash.Direction {
        switch self {
        case .north: .south
        case .northEast: .southWest
        case .east: .west
        case .southEast: .northWest
        case .south: .north
        case .southWest: .northEast
        case .west: .east
        case .northWest: .southEast
        }
    }
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
