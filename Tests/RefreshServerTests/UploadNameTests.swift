import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import RefreshServer

/// An upload is logged under the name it came with — `file_name`, else `Content-Disposition` — or a made-up one the
/// log says is made up; text parameters with control characters are refused before they reach the log or the store.
@Suite("admin imports: file names and text parameters")
struct UploadNameTests {
    static let csv = "id,name,lat,lon\n1,A,37.7712,-122.4123\n"

    @Test("Content-Disposition's filename (RFC 8187 form first, paths stripped); none gives upload-<hex>.csv")
    func headerParsing() {
        #expect(UploadFileName.fromHeader(#"attachment; filename="costcos.csv""#) == "costcos.csv")
        #expect(UploadFileName.fromHeader("attachment; filename=plain.csv") == "plain.csv")
        #expect(UploadFileName.fromHeader(#"form-data; name="f"; filename="../../etc/x.csv""#) == "x.csv")
        #expect(UploadFileName.fromHeader(#"attachment; filename="a.csv"; filename*=UTF-8''caf%C3%A9.csv"#) == "café.csv")
        #expect(UploadFileName.fromHeader("attachment") == nil)
        #expect(UploadFileName.fromHeader("attachment; filename=\"a\u{1B}[31m.csv\"") == nil)
        #expect(UploadFileName.fromHeader(nil) == nil)
        let made = UploadFileName.madeUp(head: Array(Self.csv.utf8))
        #expect(made.hasPrefix("upload-") && made.hasSuffix(".csv") && made.count == 19)
        #expect(made != UploadFileName.madeUp(head: Array(Self.csv.utf8)))
        // Named by the format the import will read, as the import tells it (a byte order mark and white space first).
        #expect(UploadFileName.madeUp(head: [0xEF, 0xBB, 0xBF] + Array("\n {\"type\": \"FeatureCollection\"".utf8)).hasSuffix(".geojson"))
        #expect(UploadFileName.madeUp(head: [0x1E] + Array("{\"type\": \"Feature\"".utf8)).hasSuffix(".geojsonseq"))
        #expect(UploadFileName.madeUp(head: []).hasSuffix(".csv"))
    }

    @Test("the import log names each upload as it came, or by a made-up name; never the same upload.csv")
    func loggedNames() async throws {
        try await withServer { client, _ in
            let csv: HTTPFields = .admin.merging([.contentType: "text/csv"])
            var named = csv
            named[.contentDisposition] = #"attachment; filename="costcos.csv""#
            #expect(try await client.send(.post, "/admin/imports?network=acme", headers: named, body: Self.csv, json: false).status == 200)
            #expect(try await client.send(.post, "/admin/imports?network=acme", headers: csv, body: Self.csv, json: false).status == 200)
            #expect(try await client.send(.post, "/admin/imports?network=acme", headers: csv, body: Self.csv, json: false).status == 200)
            let log = try await client.send(.get, "/admin/imports", headers: .admin)
            let names = (log.json?["imports"]?.array ?? []).compactMap { $0["file_name"]?.string }
            #expect(names.count == 3)
            #expect(names.contains("costcos.csv"))
            let madeUp = names.filter { $0.hasPrefix("upload-") }
            #expect(madeUp.count == 2 && Set(madeUp).count == 2, "\(names)")
            // A GeoJSON upload without a name is logged as one (it was upload-….csv).
            let feature =
                #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [-122.41, 37.77]}, "properties": {"id": "g1", "name": "G"}}"#
            let geo: HTTPFields = .admin.merging([.contentType: "application/geo+json"])
            let posted = try await client.send(.post, "/admin/imports?network=acme", headers: geo, body: feature, json: false)
            #expect(posted.status == 200, "\(posted.text)")
            let again = try await client.send(.get, "/admin/imports", headers: .admin)
            let latest = (again.json?["imports"]?.array ?? []).compactMap { $0["file_name"]?.string }
            #expect(latest.contains { $0.hasPrefix("upload-") && $0.hasSuffix(".geojson") }, "\(latest)")
        }
    }

    @Test("control characters in a text parameter are refused (400), nothing stored or logged")
    func controlCharacters() async throws {
        let logs = LogCapture()
        try await withServer(logs: logs) { client, _ in
            let headers: HTTPFields = .admin.merging([.contentType: "text/csv"])
            for query in ["file_name=x.csv%0Acritical%1B%5B31m", "network=acme%1B", "category=a%0Ab&network=acme"] {
                let reply = try await client.send(.post, "/admin/imports?\(query)", headers: headers, body: Self.csv, json: false)
                #expect(reply.status == 400, "\(query)")
                #expect(reply.json?["error"]?.string == "invalid_parameter")
            }
            let log = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(log.json?["imports"]?.array?.isEmpty == true)
            #expect(!logs.lines.withLock { $0 }.contains { $0.contains("\u{1B}") || $0.contains("critical\u{1B}") })
        }
    }
}
