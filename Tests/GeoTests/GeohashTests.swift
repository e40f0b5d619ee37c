import Testing

@testable import Geo

/// Geohash against pygeohash (encode) and python-geohash (decode, neighbours) fixtures, plus the known traps.
@Suite struct GeohashTests {
    struct Encode: Decodable {
        let lat, lon: Double
        let precision: Int
        let geohash: String
    }
    struct Decode: Decodable {
        let geohash: String
        let min_lat, max_lat, min_lon, max_lon: Double
    }
    struct Neighbors: Decodable {
        let geohash: String
        let neighbors: [String]
    }

    @Test func encodeMatchesPygeohash() throws {
        let cases = try loadFixture("geohash_encode", as: [Encode].self)
        #expect(cases.count > 3000)
        for c in cases {
            #expect(
                Geohash.encode(latitude: c.lat, longitude: c.lon, precision: c.precision) == c.geohash,
                "encode(\(c.lat), \(c.lon), \(c.precision))")
        }
    }

    @Test func stringWithSuffixAppendsOneByte() throws {
        let cases = try loadFixture("geohash_encode", as: [Encode].self)
        for c in cases.prefix(500) {
            let cell = Geohash(latitude: c.lat, longitude: c.lon, precision: c.precision)
            #expect(cell.string(suffix: nil) == c.geohash)
            #expect(cell.string(suffix: UInt8(ascii: "{")) == c.geohash + "{")
        }
    }

    @Test func decodeMatchesPythonGeohash() throws {
        for c in try loadFixture("geohash_decode", as: [Decode].self) {
            let box = try #require(Geohash(c.geohash)).box
            #expect(abs(box.minLatitude - c.min_lat) < 1e-12 && abs(box.maxLatitude - c.max_lat) < 1e-12)
            #expect(abs(box.minLongitude - c.min_lon) < 1e-12 && abs(box.maxLongitude - c.max_lon) < 1e-12)
        }
    }

    @Test func neighborsMatchPythonGeohash() throws {
        let cases = try loadFixture("geohash_neighbors", as: [Neighbors].self)
        #expect(cases.count > 500)
        for c in cases {
            let got = try #require(Geohash(c.geohash)).neighbors.values.map(\.string).sorted()
            #expect(got == c.neighbors, "neighbours of \(c.geohash)")
        }
    }

    @Test func knownTraps() throws {
        #expect(Geohash("xbpbp")?.neighbor(.east)?.string == "80000")
        #expect(Geohash("80000")?.neighbor(.west)?.string == "xbpbp")
        #expect(Geohash.encode(latitude: 90, longitude: 180, precision: 12) == "zzzzzzzzzzzz")
        #expect(Geohash.encode(latitude: -90, longitude: -180, precision: 12) == "000000000000")
        // The four cells touching (0, 0) share no prefix.
        let around = [(1e-9, 1e-9), (1e-9, -1e-9), (-1e-9, 1e-9), (-1e-9, -1e-9)].map {
            Geohash.encode(latitude: $0.0, longitude: $0.1, precision: 5)
        }
        #expect(Set(around) == ["s0000", "ebpbp", "kpbpb", "7zzzz"])
        // No wrapping over a pole: the top row has no northern neighbours.
        let top = try #require(Geohash("zzzzz"))
        #expect(top.neighbor(.north) == nil && top.neighbor(.northEast) == nil && top.neighbor(.northWest) == nil)
        #expect(top.neighbors.count == 5)
        #expect(top.neighbor(.east)?.string == "bpbpb")
        let bottom = try #require(Geohash("00000"))
        #expect(bottom.neighbor(.south) == nil && bottom.neighbors.count == 5)
    }

    @Test func parsing() {
        #expect(Geohash("") == nil)
        #expect(Geohash("abc") == nil)  // 'a' is not in the alphabet
        #expect(Geohash("0123456789bcd") == nil)  // 13 characters
        #expect(Geohash("U4PRUYD")?.string == "u4pruyd")
    }

    @Test func roundTripAtEveryPrecision() throws {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<2000 {
            let c = try Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng))
            for p in 1...12 {
                let h = Geohash(c, precision: p)
                #expect(Geohash(h.string) == h)
                #expect(Geohash(precision: p, interleaved: h.interleaved) == h)
                let b = h.box
                #expect(c.latitude >= b.minLatitude && c.latitude <= b.maxLatitude)
                #expect(c.longitude >= b.minLongitude && c.longitude <= b.maxLongitude)
            }
        }
    }
}
