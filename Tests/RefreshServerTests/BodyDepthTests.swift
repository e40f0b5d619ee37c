import Foundation
import HTTPTypes
import RegionRefresh
import TestSupport
import Testing

@testable import RefreshServer

/// A JSON body nested 65,000 deep (64 KB of `[`, under the body limit) is refused by one pass before any other reader,
/// on every route that takes JSON: a security probe of 0.10.0 saw such a body cost 1.6 to 6 GB on the admin routes,
/// whose duplicate-member scan ran first and wrote a path string at every level.
@Suite("JSON bodies: depth refused before anything reads them")
struct BodyDepthTests {
    static let deep = String(repeating: "[", count: 65_000)

    /// The process's resident memory, from the kernel.
    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
    }

    static let routes: [(HTTPRequest.Method, String, String)] = [
        (.post, "/admin/keys", "/admin/keys"),
        (.post, "/admin/locations", "/admin/locations"),
        (.put, "/admin/locations/loc_costco_sf", "/admin/locations/{id}"),
        (.patch, "/admin/locations/loc_costco_sf", "/admin/locations/{id}"),
        (.put, "/admin/networks/costco", "/admin/networks/{id}"),
        (.patch, "/admin/networks/costco", "/admin/networks/{id}"),
        (.post, "/admin/networks/costco/merge", "/admin/networks/{id}/merge"),
        (.post, "/admin/networks/costco/aliases", "/admin/networks/{id}/aliases"),
        (.post, "/v1/region-refresh", "/v1/region-refresh"),
    ]

    @Test("65,000 levels on every JSON route: 400 at once, and no memory kept")
    func deepBodiesAreRefused() async throws {
        try await withServer { client, _ in
            let before = Self.residentBytes()
            // How fast is the benchmark's to say (scripts/abuse.sh admin: 0.4-1.2 ms each on the release binary).
            for (method, path, route) in Self.routes {
                let reply = try await client.send(method, path, route: route, headers: .admin, body: Self.deep)
                #expect(reply.status == 400, "\(method) \(path): \(reply.text.prefix(200))")
                #expect(reply.text.contains("nest"), "\(method) \(path): \(reply.text.prefix(200))")
            }
            // An import's mapping part is JSON too.
            let boundary = "----oncue-deep"
            let built = MultipartUploadTests.body(
                boundary: boundary,
                parts: [("mapping", nil, Array(Self.deep.utf8)), ("file", "a.csv", Array("id,name,lat,lon\n1,A,37.7,-122.4\n".utf8))])
            let reply = try await client.send(
                .post, "/admin/imports?network=costco",
                headers: HTTPFields.admin.merging([.contentType: "multipart/form-data; boundary=\(boundary)"]),
                body: String(decoding: built.bytes, as: UTF8.self), json: false)
            #expect(reply.status == 400 && reply.text.contains("nest"), "\(reply.text.prefix(300))")
            // One such body took 1.6 to 6 GB before; the process's other tests allocate meanwhile, hence the margin.
            let grown = Self.residentBytes() - before
            #expect(grown < 1 << 30, "resident memory grew by \(grown >> 20) MB")
        }
    }

    @Test("the one pass finds a repeated member at any depth, and its path, without reading what follows twice")
    func shapeFindings() {
        func check(_ text: String, maxDepth: Int = JSONShape.maxDepth) -> JSONShape.Finding? {
            Array(text.utf8).withUnsafeBytes { JSONShape.check($0, maxDepth: maxDepth) }
        }
        #expect(check(#"{"lat": 1, "lat": 2}"#) == .duplicate(path: "lat"))
        #expect(check(#"{"a": [{"b": 1}, {"b": 2, "c": {"d": 1, "d": 2}}]}"#) == .duplicate(path: "a[1].c.d"))
        #expect(check(#"{"l\u0061t": 1, "lat": 2}"#) == .duplicate(path: "lat"))
        #expect(check(#"{"a": {"x": 1}, "b": {"x": 1}}"#) == nil)
        #expect(check(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        #expect(check(String(repeating: "[", count: 65)) == .tooDeep(limit: 64))
        // Depth wins over a duplicate met before it.
        #expect(check(#"{"a": 1, "a": 2, "b": "# + String(repeating: "[", count: 100)) == .tooDeep(limit: 64))
        // Text that is not JSON ends too, leaving the syntax to the reader that follows.
        for broken in [#"{"a": }"#, #"{"a" 1}"#, "[1,,2]", #"{"a": [1, }"#, "{:}", "]", #"{"a"#, "\"", ""] {
            _ = check(broken)
        }
    }
}
