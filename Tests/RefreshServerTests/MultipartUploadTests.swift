import Foundation
import Geo
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import RefreshServer

/// `multipart/form-data` imports: the parts found where the body's builder put them, whatever their size and wherever
/// a 1 MiB read ends; a mapping sent as a part used by the import; malformed bodies refused with 400.
@Suite("admin imports: multipart bodies")
struct MultipartUploadTests {
    struct Built {
        var bytes: [UInt8] = []
        var ranges: [String: Range<Int64>] = [:]
    }

    /// A body as RFC 7578 writes it, with where each part's content lies.
    static func body(boundary: String, parts: [(name: String, fileName: String?, content: [UInt8])], preamble: String = "") -> Built {
        var built = Built()
        built.bytes += Array(preamble.utf8)
        for part in parts {
            built.bytes += Array("--\(boundary)\r\n".utf8)
            let file = part.fileName.map { "; filename=\"\($0)\"" } ?? ""
            built.bytes += Array(
                "Content-Disposition: form-data; name=\"\(part.name)\"\(file)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            let start = Int64(built.bytes.count)
            built.bytes += part.content
            built.ranges[part.name] = start..<Int64(built.bytes.count)
            built.bytes += Array("\r\n".utf8)
        }
        built.bytes += Array("--\(boundary)--\r\n".utf8)
        return built
    }

    static func parts(_ bytes: [UInt8], boundary: String) throws -> [MultipartUpload.Part] {
        let path = NSTemporaryDirectory() + "multipart-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MultipartUpload.parts(path: path, size: Int64(bytes.count), boundary: boundary)
    }

    @Test("parts are found where they were put, for contents around the 1 MiB read size", arguments: [0, 1, 1_048_500, 1_048_576, 2_200_000])
    func partsAreWhereTheyWerePut(fileSize: Int) throws {
        let boundary = "----oncue\(fileSize)"
        // Content full of near-misses (CRLFs, dashes, the boundary's prefix), seeded: a cheap generator, since a
        // megabyte of system randomness is seconds of the suite's time.
        var random = SeededRandom(seed: UInt64(fileSize))
        let alphabet = Array("\r\n-a,1".utf8) + Array("--\(boundary.prefix(6))".utf8)
        let content = (0..<fileSize).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
        let mapping = Array(#"{"columns": {"latitude": "Y"}}"#.utf8)
        for preamble in ["", "ignored preamble\r\n"] {
            let built = Self.body(boundary: boundary, parts: [("mapping", nil, mapping), ("file", "a.csv", content)], preamble: preamble)
            let found = try Self.parts(built.bytes, boundary: boundary)
            #expect(found.map(\.name) == ["mapping", "file"])
            #expect(found.first { $0.name == "file" }?.range == built.ranges["file"])
            #expect(found.first { $0.name == "mapping" }?.range == built.ranges["mapping"])
            #expect(found.first { $0.name == "file" }?.fileName == "a.csv")
        }
    }

    @Test("malformed bodies are refused", arguments: ["no closing", "garbage after boundary", "no disposition", "no blank line"])
    func malformed(kind: String) {
        let boundary = "b0undary"
        let text: String =
            switch kind {
            case "no closing": "--b0undary\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nid,lat\r\n"
            case "garbage after boundary": "--b0undaryXX\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nx\r\n--b0undary--"
            case "no disposition": "--b0undary\r\nContent-Type: text/csv\r\n\r\nx\r\n--b0undary--"
            default: "--b0undary\r\nContent-Disposition: form-data; name=\"file\"\r\nx\r\n--b0undary--"
            }
        #expect(throws: APIError.self) { try Self.parts(Array(text.utf8), boundary: boundary) }
    }

    @Test("the boundary comes from the media type, quoted or not, within RFC 2046's 70 characters")
    func boundaries() {
        #expect(MultipartUpload.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartUpload.boundary(contentType: #"Multipart/Form-Data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(MultipartUpload.boundary(contentType: "multipart/form-data") == nil)
        #expect(MultipartUpload.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)) == nil)
        #expect(MultipartUpload.boundary(contentType: "text/csv; boundary=abc") == nil)
    }

    @Test("a mapping sent as a part maps the file's columns; bad parts are refused and nothing is stored")
    func mappingPart() async throws {
        let boundary = "oncue-test-boundary"
        let csv = Array("store,c1,c2\n1,37.7712,-122.4123\n2,37.7812,-122.4223\n".utf8)
        let mapping = Array(#"{"columns": {"id": "store", "latitude": "c1", "longitude": "c2"}}"#.utf8)
        let headers: HTTPFields = .admin.merging([.contentType: "multipart/form-data; boundary=\(boundary)"])
        @Sendable func send(
            _ client: any ServerClient, _ parts: [(String, String?, [UInt8])], query: String = "network=acme"
        ) async throws -> Reply {
            let body = Self.body(boundary: boundary, parts: parts.map { (name: $0.0, fileName: $0.1, content: $0.2) }).bytes
            return try await client.send(.post, "/admin/imports?\(query)", headers: headers, body: String(decoding: body, as: UTF8.self), json: false)
        }
        try await withServer { client, _ in
            let without = try await send(client, [("file", "stores.csv", csv)])
            #expect(without.status == 422, "without the mapping the file has no coordinate columns: \(without.text)")
            let bad = try await send(client, [("mapping", nil, Array(#"{"columns": {"lattitude": "Y"}}"#.utf8)), ("file", "stores.csv", csv)])
            #expect(bad.status == 422 && bad.json?["error"]?.string == "invalid_mapping", "\(bad.text)")
            let unknown = try await send(client, [("path", nil, Array("/etc/passwd".utf8)), ("file", "stores.csv", csv)])
            #expect(unknown.status == 400 && unknown.json?["error"]?.string == "invalid_multipart", "\(unknown.text)")
            let noFile = try await send(client, [("mapping", nil, mapping)])
            #expect(noFile.status == 400, "\(noFile.text)")
            let log = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(log.json?["imports"]?.array?.allSatisfy { $0["committed"]?.bool != true } ?? true)

            let good = try await send(client, [("mapping", nil, mapping), ("file", "stores.csv", csv)])
            #expect(good.status == 200, "\(good.text)")
            #expect(good.json?["totals"]?["inserted"]?.int == 2, "\(good.text)")
            let imports = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(imports.json?["imports"]?.array?.first?["file_name"]?.string == "stores.csv")
            let nearest = try await client.send(.get, "/v1/locations?bbox=-122.5,37.7,-122.4,37.8")
            #expect(nearest.text.contains("acme"), "\(nearest.text)")
        }
    }
}
