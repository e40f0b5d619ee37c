import Foundation
import Geo
import LocationStore
import RegionRefresh
import Testing

/// The hand-written JSON writer against the standard library's formatting and Foundation's parser.
@Suite("JSON writer")
struct JSONWriterTests {
    @Test func integersAndWholeNumbersMatchTheStandardLibrary() {
        var rng = SystemRandomNumberGenerator()
        var values: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, 1_000_000, Int.max, Int.min, Int(Int32.max), Int(Int32.min)]
        for _ in 0..<2_000 { values.append(Int.random(in: Int.min...Int.max, using: &rng) >> Int.random(in: 0...63, using: &rng)) }
        for v in values {
            var w = JSONWriter()
            w.int(v)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(v))
        }
        for v in [0.0, -0.0, 1.0, -250.0, 21_600.0, 8.9e15, 123.5, -0.25, 1e-7, 40.892116] {
            var w = JSONWriter()
            w.number(v)
            let text = String(decoding: w.bytes, as: UTF8.self)
            #expect(Double(text) == v || (v == 0 && Double(text) == 0), "\(v) → \(text)")
            if v == v.rounded() && abs(v) < 9e15 { #expect(!text.contains(".") && !text.contains("e")) }
        }
    }

    /// Fractions are written without `description` when a few digits say them exactly: the text must read
    /// back to the same Double, and be the standard library's shortest text wherever that has no exponent.
    @Test func fractionsReadBackExactlyAndMatchTheShortestForm() throws {
        var rng = SeededRandom(seed: 2026)
        var values: [Double] = [
            0.5, -0.5, 0.1, -0.1, 1e-9, 0.000123, 40.7128, -73.935242, 123.456789012, 1.0 / 3.0, .pi,
            0.30000000000000004, 9.0e14 + 0.5, -1e-7, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
        ]
        for _ in 0..<5_000 {
            let decimals = Int.random(in: 1...12, using: &rng)
            let scale = pow(10, Double(decimals))
            // Coordinates as CSV files give them (a few decimals), and arbitrary doubles.
            values.append((Double.random(in: -180...180, using: &rng) * scale).rounded() / scale)
            values.append(Double.random(in: -1e6...1e6, using: &rng))
            values.append(Double.random(in: 0..<1, using: &rng) * pow(10, Double(Int.random(in: -12...3, using: &rng))))
        }
        for v in values where v != v.rounded() {
            var w = JSONWriter()
            w.number(v)
            let text = String(decoding: w.bytes, as: UTF8.self)
            #expect(Double(text) == v, "\(v) written as \(text)")
            if !v.description.contains("e") { #expect(text == v.description, "\(v)") }
        }
    }

    @Test func writtenDocumentsParseBackWithFoundation() throws {
        var w = JSONWriter()
        w.beginObject()
        w.key("name")
        w.string("quote \" backslash \\ newline \n tab \t bell \u{07} café 東京")
        w.key("n")
        w.int(-42)
        w.key("list")
        w.beginArray()
        w.number(1.5)
        w.bool(true)
        w.null()
        w.string(nil)
        w.endArray()
        w.endObject()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(object["name"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07} café 東京")
        #expect(object["n"] as? Int == -42)
        #expect((object["list"] as? [Any])?.count == 4)
    }

    /// The writer grows its own buffer: strings of every length up to a few hundred bytes, with escapes and
    /// multi-byte characters, written from the smallest buffer, must read back exactly.
    @Test func growsFromATinyBufferWithoutLosingBytes() throws {
        var rng = SeededRandom(seed: 7)
        let alphabet = Array("ab\"\\\n\r\t\u{01}\u{1F} é東😀/".unicodeScalars)
        var values: [String] = []
        for length in 0..<300 {
            var s = String.UnicodeScalarView()
            for _ in 0..<length { s.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            values.append(String(s))
        }
        var w = JSONWriter(capacity: 1)
        w.beginArray()
        for (i, v) in values.enumerated() {
            w.string(v)
            w.beginObject()
            w.key("n")
            w.int(i)
            w.key("x")
            w.number(Double(i) + 0.25)
            w.endObject()
        }
        w.endArray()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [Any])
        #expect(parsed.count == 2 * values.count)
        for (i, v) in values.enumerated() {
            #expect(parsed[2 * i] as? String == v, "string of \(i) scalars")
            let object = parsed[2 * i + 1] as? [String: Any]
            #expect(object?["n"] as? Int == i)
            #expect(object?["x"] as? Double == Double(i) + 0.25)
        }
        #expect(Array(w.written) == w.bytes)
    }
}
