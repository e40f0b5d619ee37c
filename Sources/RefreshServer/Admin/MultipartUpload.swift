import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// A `multipart/form-data` upload (RFC 7578) staged whole on disk: where each part's content lies in the file. An
/// import sends its file as the part `file` and, when it has one, its mapping as the part `mapping`, so a mapping comes
/// with the request and is never a path on the server. The file part is read in place (`ImportInput.file(_:range:)`),
/// so a large upload is not copied again.
struct MultipartUpload {
    struct Part: Equatable {
        let name: String
        let fileName: String?
        let range: Range<Int64>
    }

    /// At most this many parts: an import has two.
    static let maxParts = 8
    /// A part's headers beyond this are not headers.
    static let maxHeaderBytes = 8 << 10

    /// The boundary of a `multipart/form-data` media type; nil for another type or a boundary RFC 2046 does not allow.
    static func boundary(contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            guard let eq = piece.firstIndex(of: "="), piece[..<eq].lowercased() == "boundary" else { continue }
            var value = String(piece[piece.index(after: eq)...])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
            return value
        }
        return nil
    }

    /// The parts of the staged body at `path`, in order; a body that is not well-formed multipart is 400.
    static func parts(path: String, size: Int64, boundary: String) throws -> [Part] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw APIError(.serviceUnavailable, code: "staging_failed", message: "cannot read the staged upload", retryAfter: 5) }
        defer { close(fd) }
        let delimiters = try delimiterOffsets(fd: fd, size: size, boundary: boundary)
        guard delimiters.count >= 2 else { throw malformed("the body has no closing boundary '--\(boundary)--'") }
        var parts: [Part] = []
        for (start, next) in zip(delimiters, delimiters.dropFirst()) {
            let (headers, contentStart) = try headers(fd: fd, after: start.end, before: next.start)
            let disposition = try contentDisposition(headers)
            parts.append(Part(name: disposition.name, fileName: disposition.fileName, range: contentStart..<next.start))
            if next.closes { return parts }
        }
        throw malformed("the body has no closing boundary '--\(boundary)--'")
    }

    /// Where each delimiter line starts (its CRLF) and where the part after it starts, and whether it closes the body.
    private static func delimiterOffsets(fd: Int32, size: Int64, boundary: String) throws -> [(start: Int64, end: Int64, closes: Bool)] {
        let needle = Array("\r\n--\(boundary)".utf8)
        var found: [(start: Int64, end: Int64, closes: Bool)] = []
        // The first delimiter may open the body without a CRLF before it: read as if one were there.
        var offset: Int64 = -2
        var carry: [UInt8] = [0x0D, 0x0A]
        let chunkSize = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var position: Int64 = 0
        while position < size || !carry.isEmpty {
            let n = position < size ? buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, chunkSize, off_t(position)) } : 0
            guard n >= 0 else { throw malformed("the staged upload cannot be read") }
            let window = carry + buffer[0..<n]
            position += Int64(n)
            let atEnd = n == 0
            var searchFrom = 0
            while let hit = search(needle, in: window, from: searchFrom) {
                // A delimiter line: the needle, then "--" (the close) or optional padding and CRLF.
                var end = hit + needle.count
                if end + 2 > window.count {
                    if atEnd { throw malformed("the body ends inside a boundary line") }
                    break  // the next read brings the rest of the line
                }
                let closes = window[end] == UInt8(ascii: "-") && window[end + 1] == UInt8(ascii: "-")
                if !closes {
                    while end < window.count, window[end] == 0x20 || window[end] == 0x09 { end += 1 }
                    if end + 2 > window.count {
                        if atEnd { throw malformed("the body ends inside a boundary line") }
                        break
                    }
                    guard window[end] == 0x0D, window[end + 1] == 0x0A else { throw malformed("a boundary line is not followed by CRLF") }
                    end += 2
                }
                found.append((offset + Int64(hit), offset + Int64(end), closes))
                if closes { return found }
                guard found.count <= maxParts else { throw malformed("more than \(maxParts) parts") }
                searchFrom = end
            }
            if n == 0 { break }
            // Keep what a delimiter starting near the end of this window still needs.
            let keep = min(window.count - searchFrom, needle.count + 2 + 64)
            carry = Array(window[(window.count - keep)...])
            offset += Int64(window.count - keep)
        }
        return found
    }

    /// The first `needle` in `haystack` from `start`: `memchr` to each candidate first byte, then a compare (Glibc
    /// does not export `memmem` to Swift).
    private static func search(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count - start >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { pin -> Int? in
                let base = hay.baseAddress!
                var at = start
                let last = hay.count - needle.count
                while at <= last {
                    guard let hit = memchr(base + at, Int32(first), last - at + 1) else { return nil }
                    let offset = UnsafeRawPointer(hit) - base
                    if memcmp(base + offset, pin.baseAddress!, needle.count) == 0 { return offset }
                    at = offset + 1
                }
                return nil
            }
        }
    }

    /// A part's header lines and where its content starts.
    private static func headers(fd: Int32, after start: Int64, before end: Int64) throws -> ([String], Int64) {
        let length = Int(min(Int64(maxHeaderBytes), end - start))
        var bytes = [UInt8](repeating: 0, count: max(0, length))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(start)) }
        guard n == length else { throw malformed("the staged upload cannot be read") }
        let separator = Array("\r\n\r\n".utf8)
        // A part with no header lines starts with its blank line at once.
        if bytes.starts(with: [0x0D, 0x0A]) { return ([], start + 2) }
        guard let blank = search(separator, in: bytes, from: 0) else { throw malformed("a part's headers do not end with a blank line") }
        let text = String(decoding: bytes[..<blank], as: UTF8.self)
        return (text.components(separatedBy: "\r\n"), start + Int64(blank + separator.count))
    }

    /// `Content-Disposition: form-data; name="file"; filename="stores.csv"`.
    private static func contentDisposition(_ headers: [String]) throws -> (name: String, fileName: String?) {
        for line in headers {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "content-disposition" else { continue }
            let parameters = HeaderParameters.parse(String(line[line.index(after: colon)...]))
            guard parameters.value.lowercased() == "form-data", let name = parameters["name"], !name.isEmpty else {
                throw malformed("a part's Content-Disposition must be form-data with a name")
            }
            return (name, UploadFileName.fromHeader(String(line[line.index(after: colon)...])))
        }
        throw malformed("a part has no Content-Disposition header")
    }

    static func malformed(_ reason: String) -> APIError {
        APIError.badRequest("invalid_multipart", "the multipart/form-data body is malformed: \(reason)")
    }
}

/// A header's value and its `; key=value` parameters, values unquoted and unescaped (`form-data; name="a;b"`,
/// `attachment; filename="x\"y.csv"`): a multipart part's `Content-Disposition`, and an upload's.
struct HeaderParameters {
    let value: String
    private let parameters: [(key: String, value: String)]

    subscript(_ key: String) -> String? { parameters.first { $0.key == key }?.value }

    static func parse(_ text: String) -> HeaderParameters {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        let trimmed = pieces.map { $0.trimmingCharacters(in: .whitespaces) }
        let parameters = trimmed.dropFirst().compactMap { piece -> (key: String, value: String)? in
            guard let eq = piece.firstIndex(of: "=") else { return nil }
            return (piece[..<eq].trimmingCharacters(in: .whitespaces).lowercased(), String(piece[piece.index(after: eq)...]))
        }
        return HeaderParameters(value: trimmed.first ?? "", parameters: parameters)
    }
}
