import Foundation
import Geo
import Testing

@testable import ChainImport

/// The import's JSON reader against Foundation's `JSONSerialization`, which the import used before: the same values
/// from the same texts, and the same texts refused. Where the two differ on purpose (a number's exactness and its
/// text as a property, numbers beyond a double), a test of its own says what the reader does.
@Suite struct JSONReaderTests {
    /// Whether Foundation's value and the reader's are the same: objects by their names (the last of a name written
    /// twice), numbers within 1e-14 of each other. Foundation's parser is not exact: it reads `-54.73857593999442`
    /// as -54.738575939994426 and `-0.0` as 0, where the reader gives the double nearest the text
    /// (`numbersReadExactly`).
    static func same(_ foundation: Any, _ value: JSONValue) -> Bool {
        switch (foundation, value) {
        case (let object as [String: Any], .object(let members)):
            var last: [String: JSONValue] = [:]
            for member in members { last[member.name] = member.value }
            return object.count == last.count && object.allSatisfy { name, value in last[name].map { same(value, $0) } ?? false }
        case (let array as [Any], _) where value.array != nil:
            let elements = value.array ?? []
            return array.count == elements.count && zip(array, elements).allSatisfy { same($0, $1) }
        case (let string as String, .string(let text)):
            return string == text
        case (let number as NSNumber, .bool(let flag)):
            return String(cString: number.objCType) == "c" && number.boolValue == flag
        case (let number as NSNumber, .number(let double, _)):
            let expected = number.doubleValue
            return String(cString: number.objCType) != "c" && abs(expected - double) <= 1e-14 * max(1, abs(double))
        case (is NSNull, .null):
            return true
        default:
            return false
        }
    }

    /// Both parsers on `text`: nil when both refuse it, true when both take it as the same value, false otherwise.
    static func agree(_ text: [UInt8]) -> Bool? {
        // Foundation reads a text with a NUL among its first bytes as UTF-16 or UTF-32; GeoJSON is UTF-8 (RFC 7946),
        // and a NUL outside a string is no JSON.
        if text.prefix(4).contains(0) { return (try? JSONReader.parse(text)) == nil ? nil : false }
        let foundation = try? JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed])
        let reader: Result<JSONReader.Parsed, JSONReader.Failure> = Result { () throws(JSONReader.Failure) in try JSONReader.parse(text) }
        switch (foundation, reader) {
        case (nil, .failure): return nil
        case (let foundation?, .success(let parsed)): return same(foundation, parsed.value)
        // Foundation takes a number whose exponent has five digits or more (`1E79493`) as infinity; the reader
        // refuses every number beyond a double, as Foundation refuses `2e400`.
        case (_?, .failure(let failure)) where failure.message.contains("beyond what a double holds"): return nil
        default: return false
        }
    }

    // MARK: Generated documents

    static let numbers = [
        "0", "-0", "250", "-12", "2.5", "0.1", "1e3", "1E-7", "-0.0", "3.0e2", "1.5e300", "12345678901234567890",
        "100000000000000000000000", "9007199254740993", "-73.985656", "40.748817", "1e+2", "0.000001", "123456.789e-3",
    ]
    static let pieces = [
        "a", "Costco #12", "é", "東京", "😀", "\\\"", "\\\\", "\\/", "\\b\\f\\n\\r\\t", "\\u00e9", "\\u6771", "\\ud83d\\ude00",
        "\\u0000", " ", "O'Brien", "addr:street",
    ]

    static func string(_ rng: inout SeededRandom) -> String {
        "\"" + (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() + "\""
    }

    static func value(_ rng: inout SeededRandom, depth: Int) -> String {
        let space = [" ", "", "\n", "\t", "\r\n"].randomElement(using: &rng)!
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &rng) {
        case 0: return string(&rng)
        case 1: return numbers.randomElement(using: &rng)!
        case 2: return ["true", "false", "null"].randomElement(using: &rng)!
        case 3: return "\(Double.random(in: -180...180, using: &rng))"
        case 4: return "\(Int.random(in: -1_000_000...1_000_000, using: &rng))"
        case 5:
            let elements = (0..<Int.random(in: 0...4, using: &rng)).map { _ in value(&rng, depth: depth + 1) }
            return "[" + space + elements.joined(separator: "," + space) + "]"
        default:
            let members = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                string(&rng) + space + ":" + value(&rng, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + space + "}"
        }
    }

    @Test func generatedDocumentsReadAsFoundationReadsThem() {
        var rng = SeededRandom(seed: 8259)
        var compared = 0
        for _ in 0..<3_000 {
            let text = Array(Self.value(&rng, depth: 0).utf8)
            guard let agreed = Self.agree(text) else { continue }
            #expect(agreed, "\(String(decoding: text, as: UTF8.self))")
            compared += 1
        }
        #expect(compared > 2_500, "the generator writes valid JSON")
    }

    /// Bytes changed, added and removed at random in generated documents: the reader never traps, and takes and
    /// refuses what Foundation takes and refuses, with the same values.
    @Test func mutatedDocumentsReadAsFoundationReadsThem() {
        var rng = SeededRandom(seed: 7946)
        let alphabet = Array(#"{}[]",:\u0123456789abcdefABCDEF.eE+-tfnrl x"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF, 0xED, 0xA0]
        var refused = 0
        for _ in 0..<4_000 {
            var text = Array(Self.value(&rng, depth: 0).utf8)
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !text.isEmpty {
                let at = Int.random(in: 0..<text.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: text[at] = alphabet.randomElement(using: &rng)!
                case 1: text.insert(alphabet.randomElement(using: &rng)!, at: at)
                default: text.remove(at: at)
                }
            }
            let agreed = Self.agree(text)
            #expect(agreed != false, "\(text)")
            if agreed == nil { refused += 1 }
        }
        #expect(refused > 1_000, "the mutations break documents often enough to test refusals")
    }

    @Test func everyCutOfAFeatureIsRefusedByBoth() {
        let feature = Array(
            #"{"type":"Feature","id":17,"geometry":{"type":"Point","coordinates":[-73.98,40.75]},"properties":{"name":"Caf\u00e9 \"Ø\"","n":[1,true,null]}}"#
                .utf8)
        #expect(Self.agree(feature) == true)
        for end in 1..<feature.count {
            let cut = Array(feature[..<end])
            #expect(Self.agree(cut) == nil, "\(String(decoding: cut, as: UTF8.self))")
        }
    }

    @Test(
        arguments: [
            #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":-}"#, #"{"a":1e}"#, "{\"a\":\"tab\tin\"}", #"{"s":"\ud83d"}"#,
            #"{"s":"\udc00x"}"#, #"{"s":"\x"}"#, #"{"s":"\u12"}"#, #"{"a":1} x"#, #"{a:1}"#, #"{"a" 1}"#, #"{"a":tru}"#,
            #"{"a":[1 2]}"#, #"{"a":1 "b":2}"#, "", "   ", #"{"a":NaN}"#, #"{"a":Infinity}"#, #"{"a":+1}"#,
        ])
    func refusedByBoth(text: String) {
        #expect(Self.agree(Array(text.utf8)) == nil)
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        let text: [UInt8] = Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(Self.agree(text) == nil)
        let escaped: [UInt8] = Array(#"{"a":"\n"#.utf8) + [0xC3] + Array(#""}"#.utf8)
        #expect(Self.agree(escaped) == nil)
    }

    /// Every number reads as the double nearest its text, which `"\(double)"` round-trips (Foundation's does not).
    @Test func numbersReadExactly() throws {
        var rng = SeededRandom(seed: 754)
        for _ in 0..<20_000 {
            let double = [Double.random(in: -180...180, using: &rng), Double.random(in: -1e-5...1e-5, using: &rng), -0.0]
                .randomElement(using: &rng)!
            let value = try JSONReader.parse(Array("[\(double)]".utf8)).value.array?.first?.number
            #expect(value?.bitPattern == double.bitPattern, "\(double)")
        }
    }

    /// A property's number as text: an integer as written (never rounded to a double), any other number as the
    /// shortest text that reads back as the same double.
    @Test(
        arguments: [
            ("250", "250"), ("-12", "-12"), ("-0", "0"), ("12345678901234567890", "12345678901234567890"), ("2.5", "2.5"),
            ("1e3", "1000.0"), ("1E-7", "1e-07"), ("-0.0", "-0.0"), ("105.971070089424692", "105.97107008942469"),
        ])
    func propertyText(number: String, text: String) throws {
        let parsed = try JSONReader.parse(Array(#"{"n": \#(number)}"#.utf8))
        #expect(parsed.value["n"]?.text == text)
    }

    /// A number beyond a double is refused, as Foundation refuses it; one that would read as 0 is taken and named.
    @Test func numbersBeyondADouble() throws {
        #expect(Self.agree(Array(#"{"n": 2e400}"#.utf8)) == nil)
        #expect((try? JSONReader.parse(Array(("[" + String(repeating: "9", count: 400) + "]").utf8))) == nil)
        let underflow = try JSONReader.parse(Array(#"{"a": 0e-999, "b": "1e-400", "c": -3E-400}"#.utf8))
        #expect(underflow.unrepresentable == "-3E-400")
    }

    /// Foundation's leniency, kept so that no file it read is refused now.
    @Test func aCommaBeforeAClosingBracketIsTaken() {
        for text in [#"{"a":[1,2,]}"#, #"{"a":1,}"#] {
            #expect(Self.agree(Array(text.utf8)) == true, "\(text)")
        }
    }

    @Test func nestingIsBounded() {
        let deep = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect((try? JSONReader.parse(deep)) == nil, "refused, not a stack overflow")
        let allowed = Array((String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)).utf8)
        #expect((try? JSONReader.parse(allowed)) != nil)
    }
}

/// Coordinates are kept packed, 8 bytes a number, where a value per number cost 12 times a polygon's text; what is
/// packed reads back as the elements it stands for, and a ring of mixed positions still reads position by position.
@Suite struct PackedCoordinatesTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONReader.parse(Array(text.utf8)).value }

    @Test func ringsArePacked() throws {
        guard case .positions(let values, let dimension) = try Self.parse("[[-73.5, 40.25], [-73.75, 40.5], [-73.5, 40.25]]") else {
            Issue.record("a ring of pairs is not packed")
            return
        }
        #expect(dimension == 2 && values == [-73.5, 40.25, -73.75, 40.5, -73.5, 40.25])
        guard case .numbers(let position) = try Self.parse("[-73.5, 40.25, 12.5]") else {
            Issue.record("a position is not packed")
            return
        }
        #expect(position == [-73.5, 40.25, 12.5])
        // Integers keep their digits, so an array with one is values; so is a ring whose positions differ in length.
        guard case .array = try Self.parse("[1.5, 2]"), case .array = try Self.parse("[[1.5, 2.5], [1.5, 2.5, 3.5]]") else {
            Issue.record("an array with an integer or positions of two lengths was packed")
            return
        }
        #expect(try Self.parse("[[1.5, 2.5], [3.5, 4.5]]").array?.map { $0.array?.compactMap(\.number) ?? [] } == [[1.5, 2.5], [3.5, 4.5]])
        #expect(try Self.parse("[[1.5, 2.5], \"x\"]").array?.count == 2)
    }

    @Test func packedAndUnpackedRingsMakeTheSameFootprint() throws {
        let packed = #"[[[-73.99, 40.75], [-73.98, 40.75], [-73.98, 40.76], [-73.99, 40.76], [-73.99, 40.75]]]"#
        // The same ring with integer-valued and three-number positions, read position by position.
        let mixed = #"[[[-73.99, 40.75], [-73.98, 40.75, 10], [-73.98, 40.76], [-73.99, 40.76], [-73.99, 40.75]]]"#
        var places: [String] = []
        for rings in [packed, mixed] {
            let text = #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": \#(rings)}}"#
            guard case .success(let feature) = GeoJSONFeature.decode(Array(text.utf8)), case .footprint(let footprint) = feature.place else {
                Issue.record("\(rings) was not read as a footprint")
                return
            }
            places.append("\(footprint)")
        }
        #expect(places[0] == places[1])
    }
}
