import Foundation
import Geo
import Testing

@testable import ChainImport

/// The splitter hands over exactly the features a whole-document JSON parse finds, however the bytes are cut.
@Suite("GeoJSON splitter")
struct GeoJSONSplitterTests {
    /// Features whose strings hold every byte the splitter must not take for structure.
    static func features(_ count: Int, seed: UInt64) -> [[String: Any]] {
        var random = SeededRandom(seed: seed)
        let awkward = ["a}b", "c]d", "e\"f", "g\\h", "{[", "features", "x\u{1F600}y", "tab\tand\nnewline"]
        return (0..<count).map { i in
            let lon = Double.random(in: -179...179, using: &random)
            let lat = Double.random(in: -89...89, using: &random)
            let geometry: [String: Any] =
                i % 3 == 0
                ? ["type": "Polygon", "coordinates": [[[lon, lat], [lon + 0.001, lat], [lon, lat + 0.001], [lon, lat]]]]
                : ["type": "Point", "coordinates": [lon, lat]]
            return [
                "type": "Feature", "geometry": geometry,
                "properties": ["ref": "\(i)", "note": awkward[i % awkward.count], "features": [1, [2, [String: Any]()] as [Any]] as [Any]],
            ]
        }
    }

    static func json(_ value: Any) throws -> [UInt8] { Array(try JSONSerialization.data(withJSONObject: value)) }

    static func split(_ bytes: [UInt8], chunk: Int, limit: Int = 1 << 20) throws -> (pieces: [GeoJSONSplitter.Piece], shape: String) {
        var splitter = GeoJSONSplitter(maxFeatureBytes: limit)
        var pieces: [GeoJSONSplitter.Piece] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            try Array(bytes[offset..<end]).withUnsafeBufferPointer { try splitter.feed($0) { pieces.append($0) } }
            offset = end
        }
        try splitter.finish()
        return (pieces, splitter.shape.rawValue)
    }

    static func parsed(_ pieces: [GeoJSONSplitter.Piece]) throws -> [NSDictionary] {
        try pieces.map { piece in
            guard case .value(let bytes, _) = piece else { throw CocoaError(.coderInvalidValue) }
            return try JSONSerialization.jsonObject(with: Data(bytes)) as! NSDictionary
        }
    }

    @Test("a FeatureCollection, cut at any chunk size, gives the whole parse's features in order", arguments: [1, 3, 7, 64, 1 << 20])
    func collection(chunk: Int) throws {
        let features = Self.features(40, seed: 7)
        let document: [String: Any] = ["type": "FeatureCollection", "bbox": [1, 2, [3]] as [Any], "crs": ["a": ["b": "]"]], "features": features]
        let bytes = try Self.json(document)
        let (pieces, shape) = try Self.split(bytes, chunk: chunk)
        let expected = (try JSONSerialization.jsonObject(with: Data(bytes)) as! NSDictionary)["features"] as! [NSDictionary]
        #expect(try Self.parsed(pieces) == expected)
        #expect(shape == "geojson")
    }

    @Test("a sequence with record separators, or one feature per line, or a top-level array, gives the same features")
    func sequences() throws {
        let features = Self.features(25, seed: 8)
        let expected = try features.map { try JSONSerialization.jsonObject(with: Data(try Self.json($0))) as! NSDictionary }
        let lines = try features.map { try Self.json($0) }
        let withRS: [UInt8] = lines.flatMap { [UInt8(0x1E)] + $0 + [UInt8(0x0A)] }
        let ndjson: [UInt8] = lines.flatMap { $0 + [UInt8(0x0A)] }
        let array = try Self.json(features)
        for (bytes, shape) in [(withRS, "geojsonseq"), (ndjson, "geojsonseq"), (array, "geojson")] {
            for chunk in [1, 5, 4096] {
                let (pieces, found) = try Self.split(bytes, chunk: chunk)
                #expect(try Self.parsed(pieces) == expected)
                #expect(found == shape)
            }
        }
    }

    @Test("a file cut inside a collection or a feature is refused, naming how many features came before")
    func truncated() throws {
        let bytes = try Self.json(["type": "FeatureCollection", "features": Self.features(5, seed: 9)])
        #expect {
            try Self.split(Array(bytes.dropLast(40)), chunk: 100)
        } throws: { error in
            guard case .truncated(_, let count, true) = error as? GeoJSONError else { return false }
            return count == 4
        }
        let seq: [UInt8] = try Self.features(3, seed: 10).flatMap { try Self.json($0) + [UInt8(0x0A)] }
        #expect(throws: GeoJSONError.self) { try Self.split(Array(seq.dropLast(10)), chunk: 7) }
        #expect(throws: GeoJSONError.empty) { try Self.split(Array("  \n".utf8), chunk: 7) }
        #expect(throws: GeoJSONError.self) { try Self.split(Array("{} 42".utf8), chunk: 7) }
    }

    @Test("a record separator ends a text cut short; the next one is read whole")
    func separatorRecovers() throws {
        let good = try Self.json(Self.features(1, seed: 11)[0])
        let bytes: [UInt8] = [0x1E] + Array(#"{"type":"Feature","properties":{"a":"{["#.utf8) + [0x1E] + good + [0x0A]
        let (pieces, shape) = try Self.split(bytes, chunk: 3)
        #expect(pieces.count == 2 && shape == "geojsonseq")
        guard case .value(let first, 1) = pieces[0], case .value(let second, 2) = pieces[1] else {
            Issue.record("expected two values")
            return
        }
        if case .success = GeoJSONFeature.decode(first) { Issue.record("a cut text parsed") }
        #expect(second == good)
    }

    @Test("a feature over the limit is skipped with its size; scalars in features are counted, not parsed")
    func limitsAndScalars() throws {
        let big = try Self.json(["type": "Feature", "properties": ["pad": String(repeating: "x", count: 500)], "geometry": NSNull()])
        let small = try Self.json(Self.features(1, seed: 12)[0])
        let bytes = Array(#"{"features":[1,"}",null,"#.utf8) + big + [0x2C] + small + Array("]}".utf8)
        let (pieces, _) = try Self.split(bytes, chunk: 11, limit: 300)
        #expect(pieces.count == 5)
        var kinds: [String] = []
        for piece in pieces {
            switch piece {
            case .notAnObject(let n): kinds.append("scalar\(n)")
            case .overlong(let size, let n): kinds.append("overlong\(n):\(size == Int64(big.count))")
            case .value(let b, let n): kinds.append("value\(n):\(b == small)")
            }
        }
        #expect(kinds == ["scalar1", "scalar2", "scalar3", "overlong4:true", "value5:true"])
    }
}
