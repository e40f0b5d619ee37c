import Foundation
import Testing

@testable import ChainImport

/// `ImportOptionTable` parses every option for both surfaces: what each kind accepts and refuses, deprecated names,
/// options a surface does not take, and the options that need another.
@Suite struct ImportOptionTableTests {
    typealias Given = [(name: String, text: String)]

    @Test("each kind accepts its values and refuses others, naming the option")
    func kinds() throws {
        let flags = try ImportOptionTable.values([("dry_run", "yes"), ("fix_coordinates", "1"), ("brand_catalogue", "FALSE")], from: .request)
        #expect(flags.options.dryRun && flags.options.fixCoordinates && !flags.options.usesBrandCatalogue)
        let refused: [(Given, String, String)] = [
            ([("dry_run", "maybe")], "dry_run", "must be true or false"),
            ([("encoding", "ebcdic")], "encoding", "must be one of utf-8 windows-1252 latin-1"),
            ([("delimiter", ":")], "delimiter", "must be one of , ; | tab"),
            ([("max_line_bytes", "255")], "max_line_bytes", "must be a whole number in 256...1073741824"),
            ([("max_line_bytes", "1e3")], "max_line_bytes", "must be a whole number"),
            ([("geocoder_rps", "0")], "geocoder_rps", "must be a number above 0"),
            ([("geocoder_timeout", "nan")], "geocoder_timeout", "must be a number above 0"),
            ([("network", "")], "network", "must be 1 to 200 characters"),
            ([("network", String(repeating: "n", count: 201))], "network", "must be 1 to 200 characters"),
            ([("category", "a\nb")], "category", "must not hold control characters"),
            ([("network_name_where", "=x"), ("network_name_column", "NAME")], "network_name_where", "takes COLUMN=VALUE"),
            ([("no_such_option", "1")], "no_such_option", "is not an option of an import"),
        ]
        for (given, option, reason) in refused {
            #expect(throws: ImportOptionSpec.Refusal.self, "\(given)") { try ImportOptionTable.values(given, from: .request) }
            do { _ = try ImportOptionTable.values(given, from: .request) } catch {
                #expect(error.option == option && error.reason.hasPrefix(reason) && !error.needsAnother, "\(given): \(error)")
            }
        }
    }

    @Test("choices take their usual spellings; numbers and integers their values")
    func values() throws {
        let values = try ImportOptionTable.values(
            [
                ("encoding", "CP1252"), ("delimiter", "\t"), ("max_line_bytes", "4096"), ("geocoder_rps", "0.5"),
                ("geocoder_timeout", "2.5"), ("geocode", "coarse"), ("network_name_column", "LIBNAME"),
                ("network_name_where", "C_OUT_TY=CE"),
            ], from: .commandLine)
        #expect(values.options.encoding == .windows1252)
        #expect(values.options.delimiter == 0x09)
        #expect(values.options.maxLineBytes == 4096)
        #expect(values.geocoding.requestsPerSecond == 0.5 && values.geocoding.timeoutSeconds == 2.5 && values.geocoding.mode == .coarse)
        #expect(values.options.networkNameWhere?.column == "C_OUT_TY" && values.options.networkNameWhere?.value == "CE")
        #expect(try ImportOptionTable.values([("delimiter", "\\t")], from: .request).options.delimiter == 0x09)
        #expect(try ImportOptionTable.values([("delimiter", ";")], from: .request).options.delimiter == UInt8(ascii: ";"))
    }

    @Test("a deprecated name is the same option, reported; beside its new name it must say the same; a name twice is refused")
    func deprecatedNames() throws {
        let old = try ImportOptionTable.values([("replace", "true")], from: .request)
        #expect(old.options.replaceNetwork && old.deprecatedNamesUsed == ["replace"])
        let new = try ImportOptionTable.values([("replace_network", "true")], from: .request)
        #expect(new.options.replaceNetwork && new.deprecatedNamesUsed.isEmpty)
        let both = try ImportOptionTable.values([("replace", "true"), ("replace_network", "yes")], from: .request)
        #expect(both.options.replaceNetwork, "the old and the new name saying the same is taken")
        do {
            _ = try ImportOptionTable.values([("replace", "true"), ("replace_network", "false")], from: .request)
            Issue.record("the old and the new name disagreeing was taken")
        } catch {
            #expect(error.option == "replace_network" && error.needsAnother, "\(error)")
        }
        #expect(throws: ImportOptionSpec.Refusal(option: "dry_run", reason: "is given twice")) {
            try ImportOptionTable.values([("dry_run", "true"), ("dry_run", "true")], from: .request)
        }
    }

    @Test("a mapping is never a text option, and only a request names its file")
    func surfaces() throws {
        for source in [ImportOptionTable.Source.commandLine, .request] {
            #expect(throws: ImportOptionSpec.Refusal(option: "mapping", reason: "is not an option of an import")) {
                try ImportOptionTable.values([("mapping", "/etc/passwd")], from: source)
            }
        }
        #expect(try ImportOptionTable.values([("file_name", "a.csv")], from: .request).fileName == "a.csv")
        #expect(throws: ImportOptionSpec.Refusal.self) { try ImportOptionTable.values([("file_name", "a.csv")], from: .commandLine) }
    }

    @Test("an option that needs another is refused as such (a request's 422)")
    func needsAnother() {
        do {
            _ = try ImportOptionTable.values([("network_name_where", "C_OUT_TY=CE")], from: .request)
            Issue.record("network_name_where without network_name_column was taken")
        } catch {
            #expect(error.option == "network_name_where" && error.needsAnother)
        }
        #expect(throws: ImportOptionSpec.Refusal.self) { try GeocodingRequest().with(require: true).options(url: nil) }
    }

    @Test("a request's geocoder rate is the server's unless it asks less")
    func geocoderRate() throws {
        let url = URL(string: "http://127.0.0.1:1")!
        var asked = GeocodingRequest()
        asked.mode = .missing
        #expect(try asked.options(url: url, maxRequestsPerSecond: 5)?.settings.requestsPerSecond == 5)
        #expect(try asked.options(url: url)?.settings.requestsPerSecond == ImportOptionTable.defaultGeocoderRequestsPerSecond)
        asked.requestsPerSecond = 20
        #expect(try asked.options(url: url, maxRequestsPerSecond: 5)?.settings.requestsPerSecond == 5)
        asked.requestsPerSecond = 0.5
        #expect(try asked.options(url: url, maxRequestsPerSecond: 5)?.settings.requestsPerSecond == 0.5)
    }

    @Test("names are unique snake_case, flags and deprecated names included")
    func names() {
        let names = ImportOptionTable.all.flatMap { [$0.name] + $0.deprecatedNames }
        #expect(Set(names).count == names.count, "\(names)")
        for name in names { #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(name)") }
    }

    /// docs/importing.md's table is `markdownTable`; on a difference the message holds the table to paste.
    @Test func docsTableIsTheTable() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: repo.appendingPathComponent("docs/importing.md"), encoding: .utf8)
        let header = String(ImportOptionTable.markdownTable.split(separator: "\n")[0])
        guard let start = doc.range(of: header) else {
            Issue.record("docs/importing.md has no options table (its header is \(header)); paste:\n\(ImportOptionTable.markdownTable)")
            return
        }
        let table = doc[start.lowerBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("|") }
            .joined(separator: "\n")
        #expect(
            table == ImportOptionTable.markdownTable,
            "docs/importing.md's options table is stale; replace it with:\n\(ImportOptionTable.markdownTable)")
    }
}

extension GeocodingRequest {
    fileprivate func with(require: Bool) -> GeocodingRequest {
        var copy = self
        copy.requireGeocode = require
        return copy
    }
}
