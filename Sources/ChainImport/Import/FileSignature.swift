/// What a file that is not text looks like, told from its first bytes, so that an import refuses a PNG renamed `.csv`
/// or a spreadsheet saved in its own format before it reads a header out of binary noise.
enum FileSignature {
    /// Magic numbers of the files an admin is most likely to hand over by mistake, with what to do instead.
    private static let known: [(magic: [UInt8], what: String)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
        ([0xFF, 0xD8, 0xFF], "a JPEG image"),
        (Array("GIF8".utf8), "a GIF image"),
        (Array("%PDF".utf8), "a PDF document"),
        ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (an Excel .xlsx or OpenDocument spreadsheet is one: save it as CSV)"),
        ([0x50, 0x4B, 0x05, 0x06], "an empty ZIP archive"),
        ([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], "an old Excel .xls workbook (save it as CSV)"),
        ([0x1F, 0x8B], "a gzip-compressed file (decompress it first: gunzip)"),
        (Array("BZh".utf8), "a bzip2-compressed file (decompress it first: bunzip2)"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "an xz-compressed file (decompress it first: unxz)"),
        ([0x28, 0xB5, 0x2F, 0xFD], "a zstd-compressed file (decompress it first: unzstd)"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"),
        (Array("SQLite format 3".utf8) + [0], "an SQLite database (a GeoPackage is one: export a layer with ogr2ogr -f CSV)"),
        (Array("PAR1".utf8), "a Parquet file"),
        ([0x00, 0x00, 0x27, 0x0A], "an ESRI shapefile (.shp; convert it with ogr2ogr -f GeoJSON)"),
        ([0x7F, 0x45, 0x4C, 0x46], "an executable (ELF)"),
    ]

    /// How many leading bytes `describe` looks at for NUL and control bytes.
    static let sampleSize = 4096
    /// Below this many bytes only a magic number or a mostly-NUL sample tells: a short text with an escape sequence or
    /// a NUL in a field is a text file with a bad row (rejected as such), not a binary one.
    static let smallestJudged = 512

    /// A description of `head` when it is not a text file, or nil when it may be one. Text in any single-byte
    /// encoding or UTF-8 passes, and so does a text with a few stray control bytes; a quarter of NUL bytes (UTF-16, a
    /// binary format) or, past `smallestJudged` bytes, one byte in twelve a NUL or control character (about one in nine
    /// in compressed or random data) does not.
    static func describe(_ head: ArraySlice<UInt8>) -> String? {
        if let hit = known.first(where: { head.starts(with: $0.magic) }) { return hit.what }
        // An OpenStreetMap PBF: a 4-byte length, then a protobuf BlobHeader whose type is "OSMHeader".
        if head.count > 16, head.prefix(24).dropFirst(4).starts(with: [0x0A, 0x09] + Array("OSMHeader".utf8)) {
            return "an OpenStreetMap PBF extract (convert it with osmium export -f geojsonseq)"
        }
        let sample = head.prefix(sampleSize)
        guard sample.count >= 16 else { return nil }
        let nul = sample.lazy.filter { $0 == 0 }.count
        if nul * 4 >= sample.count {
            return "a binary file, or UTF-16 text without a byte order mark (\(nul) NUL bytes in its first \(sample.count))"
        }
        guard sample.count >= smallestJudged else { return nil }
        let controls = sample.lazy.filter { ($0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0)) || $0 == 0x7F }.count
        return controls * 12 >= sample.count ? "a binary file (\(controls) NUL or control bytes in its first \(sample.count))" : nil
    }
}
