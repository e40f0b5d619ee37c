import ArgumentParser
import ChainImport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer
@testable import oncue

/// The import options table (`ImportOptionTable`) against the surfaces said to come from it: `oncue import`'s flags,
/// the query parameters `openapi.yaml` documents for `POST /admin/imports`, and what the server does with them.
@Suite("One import options table", .cpuHeavy)
struct ImportOptionSurfaceTests {
    static let requestNames = ImportOptionTable.all.filter { $0.surface != .fileOrBodyPart }.flatMap { [$0.name] + $0.deprecatedNames }

    @Test("openapi.yaml documents every option a request takes, by its name and kind, and nothing else")
    func openAPIParameters() throws {
        let contract = OpenAPIContract.shared
        let operation = try #require(contract.root["paths"]?["/admin/imports"]?["post"])
        let parameters =
            operation["parameters"]?.items.compactMap { item -> YAML? in
                if let ref = item["$ref"]?.string { return contract.resolve(ref) }
                return item
            } ?? []
        let query = parameters.filter { $0["in"]?.string == "query" }
        #expect(Set(query.compactMap { $0["name"]?.string }) == Set(Self.requestNames))
        for parameter in query {
            let name = try #require(parameter["name"]?.string)
            let option = try #require(ImportOptionTable.option(named: name))
            let schema = parameter["schema"]
            #expect((parameter["deprecated"]?.string == "true") == option.deprecatedNames.contains(name), "\(name)")
            switch option.kind {
            case .flag: #expect(schema?["type"]?.string == "boolean", "\(name)")
            case .text: #expect(schema?["type"]?.string == "string" && schema?["maxLength"]?.string.flatMap(Int.init) ?? 0 <= 200, "\(name)")
            case .choice(let shown): #expect(Set(schema?["enum"]?.items.compactMap(\.string) ?? []) == Set(shown), "\(name)")
            case .integer(let range, let value):
                #expect(schema?["type"]?.string == "integer", "\(name)")
                #expect(schema?["minimum"]?.string == String(range.lowerBound) && schema?["maximum"]?.string == String(range.upperBound), "\(name)")
                #expect(schema?["default"]?.string == String(value), "\(name)")
            case .positive(let limit, _):
                #expect(schema?["type"]?.string == "number" && schema?["exclusiveMinimum"]?.string == "0", "\(name)")
                #expect(schema?["maximum"]?.string == ImportOptionSpec.shown(limit), "\(name)")
            }
            // A default the document states is the option's.
            if let stated = schema?["default"]?.string { #expect(stated == option.defaultText, "\(name): \(stated)") }
        }
        let parts = operation["requestBody"]?["content"]?["multipart/form-data"]?["schema"]?["properties"]?.keys ?? []
        #expect(Set(parts) == ["file", "mapping"])
    }

    /// For seeded random sets of options, valid and not: `oncue import` given them as flags and a request given them as
    /// query parameters both accept or both refuse, and accepted they are the same options.
    @Test("the command line and a request read the same options alike")
    func commandLineAndRequestAgree() throws {
        var random = SystemRandomNumberGenerator()
        let shared = ImportOptionTable.all.filter { $0.surface == .both }
        for _ in 0..<300 {
            var arguments = ["stores.csv", "--db", "/nonexistent/x.sqlite"]
            var query: [(name: String, text: String)] = []
            for option in shared.shuffled(using: &random).prefix(Int.random(in: 1...6, using: &random)) {
                let text = Self.sample(option, using: &random)
                if case .flag(let on) = option.kind {
                    guard text != String(on) else { continue }  // a flag says only the other value
                    arguments.append(on ? "--no-\(option.flagName.dropFirst(2))" : option.flagName)
                } else {
                    arguments += [option.flagName, text]
                }
                query.append((option.name, text))
            }
            let byRequest = Result { try ImportOptionTable.values(query, from: .request) }
            let byFlags = Result { try Import.parse(arguments).values() }
            switch (byRequest, byFlags) {
            case (.success(let request), .success(let flags)):
                #expect(request.options.logged == flags.options.logged, "\(arguments)")
                #expect(request.geocoding == flags.geocoding, "\(arguments)")
            case (.failure, .failure): break
            default: Issue.record("\(arguments): request \(byRequest), command line \(byFlags)")
            }
        }
    }

    static func sample(_ option: ImportOptionSpec, using random: inout some RandomNumberGenerator) -> String {
        switch option.kind {
        case .text:
            let texts = ["brand", "C_OUT_TY=CE", "a b", "", String(repeating: "x", count: 201), "x\u{7}", "http://127.0.0.1:1"]
            return texts.randomElement(using: &random)!
        case .flag: return Bool.random(using: &random) ? "true" : "false"
        case .choice(let shown): return (shown + ["nope", "UTF8", "\\t"]).randomElement(using: &random)!
        case .integer(let range, _):
            return [range.lowerBound - 1, range.lowerBound, 4096, range.upperBound, range.upperBound + 1].map(String.init).randomElement(
                using: &random)!
        case .positive(let limit, _):
            return ["0", "-1", "0.5", "2", ImportOptionSpec.shown(limit), "\(limit * 2)", "inf"].randomElement(using: &random)!
        }
    }

    static let csv = "id,name,lat,lon\n1,A,37.7712,-122.4123\n2,B,37.7812,-122.4223\n"

    @Test("the options the command line had alone now reach a request's import")
    func newRequestOptions() async throws {
        let logs = LogCapture()
        try await withServer(logs: logs) { client, _ in
            let headers: HTTPFields = .admin.merging([.contentType: "text/csv"])
            let long = Self.csv + "3,\(String(repeating: "n", count: 400)),37.79,-122.43\n"
            let limited = try await client.send(
                .post, "/admin/imports?network=acme&max_line_bytes=300&dry_run=true", headers: headers, body: long, json: false)
            #expect(limited.status == 200)
            #expect(limited.json?["totals"]?["rejected"]?.int == 1, "\(limited.text)")
            let strict = try await client.send(
                .post, "/admin/imports?network=acme&strict_utf8=true&encoding=latin-1", headers: headers, body: Self.csv, json: false)
            #expect(strict.status == 422, "\(strict.text)")
            let libraries = "FSCSKEY,LIBNAME,C_OUT_TY,lat,lon\nX1,Branch,BR,37.77,-122.41\nX1,Central Library,CE,37.78,-122.42\n"
            let named = try await client.send(
                .post, "/admin/imports?network_column=FSCSKEY&network_name_column=LIBNAME&network_name_where=C_OUT_TY%3DCE",
                headers: headers, body: libraries, json: false)
            #expect(named.status == 200, "\(named.text)")
            let networks = try await client.send(.get, "/v1/networks")
            #expect(networks.text.contains("Central Library"), "\(networks.text)")
            let alone = try await client.send(
                .post, "/admin/imports?network_name_where=C_OUT_TY%3DCE", headers: headers, body: libraries, json: false)
            #expect(alone.status == 422 && alone.json?["field"]?.string == "network_name_where", "\(alone.text)")
            let deprecated = try await client.send(.post, "/admin/imports?network=acme&replace=true", headers: headers, body: Self.csv, json: false)
            #expect(deprecated.status == 200)
            #expect(logs.lines.withLock { $0 }.contains { $0.contains("deprecated import parameter") && $0.contains("replace") })
            let disagreeing = try await client.send(
                .post, "/admin/imports?network=acme&replace=true&replace_network=false", headers: headers, body: Self.csv, json: false)
            #expect(disagreeing.status == 422 && disagreeing.json?["field"]?.string == "replace_network", "\(disagreeing.text)")
        }
    }
}
