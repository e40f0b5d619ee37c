import ChainImport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/console/`: the web console's files, compiled into the binary. The page talks to the public and admin API of
/// this same server and nothing else — and the tile server of `--console-tiles`, when one is set — which the
/// Content-Security-Policy enforces in the browser.
struct ConsoleRoutes: Sendable {
    /// The console's files by name, decoded once; `config.json` is written from the settings.
    private let files: [String: (file: EmbeddedFile, bytes: ByteBuffer)]
    private let securityHeaders: HTTPFields

    init(tiles: ConsoleTiles? = nil) {
        var files: [String: (EmbeddedFile, ByteBuffer)] = [:]
        for (path, file) in EmbeddedFile.all where path.hasPrefix("console/") {
            files[String(path.dropFirst("console/".count))] = (file, file.bytes)
        }
        let config = ConsoleTiles.configJSON(tiles)
        var digest = SHA256()
        digest.update(Array(config))
        let configFile = EmbeddedFile(
            contentType: "application/json", etag: String(digest.finalizeHex().prefix(16)), base64: config.base64EncodedString())
        files["config.json"] = (configFile, configFile.bytes)
        self.files = files
        self.securityHeaders = Self.securityHeaders(tiles: tiles)
    }

    static func securityHeaders(tiles: ConsoleTiles?) -> HTTPFields {
        let images = tiles.map { "img-src 'self' data: \($0.origin); " } ?? "img-src 'self' data:; "
        return [
            .contentSecurityPolicy: "default-src 'self'; script-src 'self'; style-src 'self'; " + images
                + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
    }

    /// `/console` moves to `/console/`: the page's files are named relative to it.
    func index(_ request: Request, context: ServerContext) throws -> Response {
        guard request.uri.path.hasSuffix("/") else {
            return Response(status: .movedPermanently, headers: [.location: "/console/", .contentLength: "0"])
        }
        return try serve("index.html", request)
    }

    func file(_ request: Request, context: ServerContext) throws -> Response {
        try serve(context.parameters.get("file") ?? "", request)
    }

    private func serve(_ name: String, _ request: Request) throws -> Response {
        guard let (file, bytes) = files[name] else { throw APIError.notFound("no console file '\(name.prefix(64))'") }
        var headers = securityHeaders
        headers[.eTag] = "\"\(file.etag)\""
        // Revalidated each time: a new binary serves new files under the same names.
        headers[.cacheControl] = "no-cache"
        if let wanted = request.headers[.ifNoneMatch],
            wanted.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == "\"\(file.etag)\"" || $0.trimmingCharacters(in: .whitespaces) == "*"
            })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
