import Testing

@testable import ChainImport

@Suite("Encoding detection")
struct EncodingTests {
    func decodeAll(_ bytes: [UInt8], chunk: Int = 1 << 16) -> (EncodingDetector, String) {
        var d = EncodingDetector()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            Array(bytes[offset..<end]).withUnsafeBufferPointer { d.scan($0) }
            offset = end
        }
        d.finish()
        let text = d.decode(bytes[...])
        return (d, text)
    }

    @Test func utf8StaysUTF8EvenWhenASequenceStraddlesChunks() {
        let bytes = Array("Café – CÉSAR CHÁVEZ 😀".utf8)
        for chunk in 1...5 {
            let (d, text) = decodeAll(bytes, chunk: chunk)
            #expect(d.encoding == .utf8)
            #expect(text == "Café – CÉSAR CHÁVEZ 😀")
        }
    }

    @Test func latin1Bytes() {
        let (d, text) = decodeAll([0x43, 0x61, 0x66, 0xE9])  // "Café" in ISO-8859-1
        #expect(d.encoding == .latin1)
        #expect(text == "Café")
    }

    @Test func windows1252PunctuationIsNamedAsSuch() {
        // 0x96 is the en dash in Windows-1252 (a C1 control in Latin-1); 0xC9/0xC1 are É/Á.
        let (d, text) = decodeAll([0x41, 0x20, 0x96, 0x20, 0xC9, 0xC1, 0x80])
        #expect(d.encoding == .windows1252)
        #expect(text == "A – ÉÁ€")
        #expect(d.firstInvalidOffset == 2)
    }

    @Test func truncatedSequenceAtEndOfFileIsNotUTF8() {
        let (d, _) = decodeAll([0x41, 0xC3])
        #expect(d.encoding != .utf8)
    }

    @Test func overlongAndSurrogateEncodingsAreInvalid() {
        #expect(decodeAll([0xC0, 0xAF]).0.isValidUTF8 == false)
        #expect(decodeAll([0xED, 0xA0, 0x80]).0.isValidUTF8 == false)
        #expect(decodeAll([0xE0, 0x80, 0xAF]).0.isValidUTF8 == false)
    }

    @Test func namesAreParsed() {
        #expect(TextEncoding(name: "CP1252") == .windows1252)
        #expect(TextEncoding(name: "latin-1") == .latin1)
        #expect(TextEncoding(name: "UTF8") == .utf8)
        #expect(TextEncoding(name: "ebcdic") == nil)
    }

    @Test func sha256MatchesKnownVectors() {
        var empty = SHA256()
        #expect(empty.finalizeHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var abc = SHA256()
        abc.update(Array("abc".utf8))
        #expect(abc.finalizeHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 1,000,000 × "a", fed in uneven pieces to cross block boundaries.
        var million = SHA256()
        let piece = [UInt8](repeating: 0x61, count: 999)
        var left = 1_000_000
        while left > 0 {
            let n = min(left, piece.count)
            million.update(Array(piece[0..<n]))
            left -= n
        }
        #expect(million.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
