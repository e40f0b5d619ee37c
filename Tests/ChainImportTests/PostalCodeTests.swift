import Testing

@testable import ChainImport

/// ZIP codes that lost their leading zeros in a spreadsheet are restored; everything else is left alone.
@Suite("ZIP code restoration")
struct PostalCodeTests {
    /// The rule written character by character, as the documentation states it: a head of 3 or 4 ASCII digits,
    /// optionally followed by "-" and 4 ASCII digits, is padded with zeros to 5 digits.
    static func oracle(_ value: String) -> String? {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        func digits(_ s: Substring) -> Bool { s.unicodeScalars.allSatisfy { $0.isASCII && ("0"..."9").contains($0) } }
        guard parts.count <= 2, (3...4).contains(parts[0].count), digits(parts[0]) else { return nil }
        if parts.count == 2 && !(parts[1].count == 4 && digits(parts[1])) { return nil }
        let head = String(repeating: "0", count: 5 - parts[0].count) + parts[0]
        return parts.count == 2 ? head + "-" + parts[1] : head
    }

    @Test("the documented examples")
    func examples() {
        #expect(PostalCode.restoredZip("4062") == "04062")
        #expect(PostalCode.restoredZip("501-1234") == "00501-1234")
        #expect(PostalCode.restoredZip("501") == "00501")
        #expect(PostalCode.restoredZip("02134") == nil)
        #expect(PostalCode.restoredZip("02134-1234") == nil)
        #expect(PostalCode.restoredZip("SW1A 1AA") == nil)
        #expect(PostalCode.restoredZip("٤٠٦٢") == nil)  // Arabic-Indic digits are numbers, not ASCII digits
        #expect(PostalCode.restoredZip("4062-") == nil)
        #expect(PostalCode.restoredZip("4062-12345") == nil)
        #expect(PostalCode.restoredZip("40-62-1234") == nil)
    }

    @Test("agrees with the rule on 200,000 generated values")
    func againstTheRule() {
        let alphabet: [String] = ["0", "1", "5", "9", "-", "-", "a", "Z", " ", "٤", "é", "0\u{301}"]
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<200_000 {
            let value = (0..<next(11)).map { _ in alphabet[next(alphabet.count)] }.joined()
            #expect(PostalCode.restoredZip(value) == Self.oracle(value), "\(value.debugDescription)")
        }
    }
}
