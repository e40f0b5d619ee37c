/// Plain decimal numbers as people write coordinates: an optional sign, digits with an optional fraction (`40`,
/// `-74.0060`, `.5`, `5.`), an optional exponent (`4.07e1`). Swift's `Double(_:)` also reads hexadecimal floats
/// (`0x1p4` is 16.0), `inf`, `nan` and `infinity`, which no export means as a coordinate.
package enum DecimalNumber {
    /// The value of `text`, or nil when it is not a plain decimal number. `decimalComma` reads `40,7` as 40.7.
    package static func parse(_ text: some StringProtocol, decimalComma: Bool = false) -> Double? {
        var bytes = Array(text.utf8)
        guard bytes.count <= 64 else { return nil }  // no coordinate needs more; keeps a runaway value cheap
        if decimalComma {
            guard !bytes.contains(UInt8(ascii: ".")) else { return nil }
            for i in bytes.indices where bytes[i] == UInt8(ascii: ",") { bytes[i] = UInt8(ascii: ".") }
        }
        guard isPlainDecimal(bytes) else { return nil }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    private static func isPlainDecimal(_ b: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < b.count, (0x30...0x39).contains(b[i]) { i += 1 }
            return i - start
        }
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        var mantissa = digits()
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == b.count
    }
}
