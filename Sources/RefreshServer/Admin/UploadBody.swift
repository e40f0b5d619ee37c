import ChainImport
import Foundation
import HTTPTypes
import RegionRefresh

#if canImport(Glibc)
import Glibc
#endif

/// What a staged import upload holds: the file's bytes, and with `multipart/form-data` the mapping sent beside it and
/// the file part's own name.
struct UploadBody: Sendable {
    let staged: ImportUpload.Staged
    /// The file's bytes in the staged upload (nil: all of it).
    let range: Range<Int64>?
    let mapping: MappingFile?
    let fileName: String?

    /// The largest mapping part: a mapping is a page of JSON.
    static let maxMappingBytes = 1 << 20

    init(_ staged: ImportUpload.Staged, contentType: String) throws {
        self.staged = staged
        guard contentType.lowercased().hasPrefix("multipart/") else {
            (range, mapping, fileName) = (nil, nil, nil)
            return
        }
        guard let boundary = MultipartUpload.boundary(contentType: contentType) else {
            throw MultipartUpload.malformed("Content-Type needs a boundary of 1 to 70 printable characters")
        }
        let parts = try MultipartUpload.parts(path: staged.path, size: staged.size, boundary: boundary)
        for part in parts where part.name != "file" && part.name != "mapping" {
            throw APIError.badRequest(
                "invalid_multipart", "unknown part '\(part.name.prefix(40))': an import takes the parts 'file' and 'mapping'", field: "body")
        }
        let files = parts.filter { $0.name == "file" }
        let mappings = parts.filter { $0.name == "mapping" }
        guard files.count == 1, mappings.count <= 1 else {
            throw APIError.badRequest("invalid_multipart", "an import takes one part 'file' and at most one part 'mapping'", field: "body")
        }
        guard !files[0].range.isEmpty else {
            throw APIError.badRequest("empty_body", "the part 'file' must be a CSV or GeoJSON file", field: "file")
        }
        range = files[0].range
        fileName = files[0].fileName
        mapping = try mappings.first.map { try Self.mapping(in: staged.path, range: $0.range) }
    }

    /// The first bytes of the file (at most `count`), to tell its format by.
    func head(_ count: Int = 4_096) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: staged.path) else { return [] }
        defer { try? handle.close() }
        let start = range?.lowerBound ?? 0
        let length = min(Int64(count), (range?.upperBound ?? staged.size) - start)
        guard length > 0, (try? handle.seek(toOffset: UInt64(start))) != nil else { return [] }
        return Array((try? handle.read(upToCount: Int(length))) ?? Data())
    }

    /// The file's bytes as an import reads them.
    var input: ImportInput {
        get throws {
            if let range { return ImportInput.file(staged.path, range: range) }
            return try ImportInput.file(staged.path)
        }
    }

    private static func mapping(in path: String, range: Range<Int64>) throws -> MappingFile {
        guard range.count <= maxMappingBytes else {
            throw APIError.badRequest("invalid_mapping", "the part 'mapping' is larger than \(maxMappingBytes) bytes", field: "mapping")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw APIError(.serviceUnavailable, code: "staging_failed", message: "cannot read the staged upload", retryAfter: 5)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            data = try handle.read(upToCount: range.count) ?? Data()
        } catch {
            throw APIError(.serviceUnavailable, code: "staging_failed", message: "cannot read the staged upload", retryAfter: 5)
        }
        // Depth before JSONDecoder, as for every JSON body (`RequestBodyReader`).
        if case .tooDeep(let limit) = data.withUnsafeBytes({ JSONShape.check($0) }) {
            throw APIError.badRequest("invalid_mapping", "the part 'mapping' nests more than \(limit) arrays or objects", field: "mapping")
        }
        do { return try MappingFile.decode(data, source: "part 'mapping'") } catch {
            // Well-formed as the document describes the part (bytes), but not a mapping: 422, as a file without coordinates.
            throw APIError.unprocessable("invalid_mapping", "\(error)", field: "mapping")
        }
    }
}
