import ArgumentParser
import ChainImport
import Foundation
import TestSupport
import Testing

@testable import RefreshServer
@testable import oncue

/// `DeclaredFlags`: the flags of `oncue serve` and `oncue import` are their tables' declarations, read as text for the
/// tables' own parsers; what that text parsing gives is held here (the help's wording is held by the golden files).
@Suite("Flags declared by the tables")
struct DeclaredFlagsTests {
    @Test("each command has exactly its tables' flags, each once, with the declared help")
    func theCommandsHaveTheTablesFlags() {
        let serve = DeclaredFlags<ServeFlags>.declarations
        #expect(serve.map(\.name) == ServerSettings.all.filter { $0.flag != nil }.map(\.variable))
        let imported = DeclaredFlags<ImportFlags>.declarations + DeclaredFlags<GeocodingFlags>.declarations
        #expect(Set(imported.map(\.name)) == Set(ImportOptionTable.all.filter { $0.flag != nil }.map(\.name)))
        #expect(imported.count == Set(imported.map(\.name)).count)
        for (command, declarations) in [(Serve.self as any ParsableCommand.Type, serve), (Import.self, imported)] {
            let help = command.helpMessage(columns: 10_000)
            for declaration in declarations {
                let flag = "--" + (declaration.flag ?? "")
                let listed = help.components(separatedBy: "\n  \(flag) ").count - 1 + help.components(separatedBy: "\n  \(flag)/").count - 1
                #expect(listed == 1, "\(flag) is listed \(listed) times")
                #expect(help.contains(declaration.help), "\(flag): \(declaration.help)")
            }
        }
    }

    @Test("values reach the table as text: typed, repeated and joined, a toggle only off its default")
    func textsAsGiven() throws {
        let serve = try #require(
            try OnCue.parseAsRoot(["serve", "--port", "-1", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy=::1", "--db-read", ""]) as? Serve)
        #expect(serve.settings[ServerSettings.port] == "-1")
        #expect(serve.settings[ServerSettings.trustedProxies] == "10.0.0.0/8,::1")
        #expect(serve.settings[ServerSettings.dbRead] == "")
        #expect(serve.settings[ServerSettings.host] == nil)
        #expect(serve.settings.byFlag == ["port": "-1", "trusted-proxy": "10.0.0.0/8,::1", "db-read": ""])

        let flags = try Import.parse(["a.csv", "--dry-run", "--no-brand-catalogue", "--geocode-names", "--network", "acme", "--geocode", "all"])
        #expect(flags.flags[ImportOptionTable.dryRun] == "true")
        #expect(flags.flags[ImportOptionTable.brandCatalogue] == "false")
        #expect(flags.flags[ImportOptionTable.network] == "acme")
        #expect(flags.flags[ImportOptionTable.fixCoordinates] == nil)
        #expect(flags.geocoding[ImportOptionTable.geocodeNames] == nil, "the default, given, says nothing")
        #expect(flags.geocoding[ImportOptionTable.geocode] == "all")
        let values = try flags.values()
        #expect(values.options.dryRun && !values.options.usesBrandCatalogue && values.options.network == "acme" && values.geocoding.mode == .all)
    }

    /// A value is whatever follows a server setting's flag, so `-1` is the setting's to refuse, saying what it takes,
    /// where the argument parser would have called it an option and the value missing.
    @Test("-1 after a setting's flag is out of range, not an option", arguments: ServerSettings.all.filter { $0.flag != nil }.map(\.variable))
    func minusOneIsAValue(variable: String) throws {
        let setting = try #require(ServerSettings.all.first { $0.variable == variable })
        let flag = try #require(setting.option)
        let belowTheRange: Bool =
            switch setting.bounds {
            case .integers(let range): range.lowerBound >= 0
            case .numbers(let range, _): range.lowerBound >= 0
            case .durations: true
            case .choices, .form: false
            }
        guard belowTheRange else { return }
        let run = ServeInProcess.run(["serve", "--db", "/nonexistent/x.sqlite", "--print-configuration", flag, "-1"], environment: [:])
        #expect(run.status == 2 && run.stderr.contains("\(flag) must be"), "\(run.stderr)")
        #expect(!run.stderr.contains("Missing value"), "\(run.stderr)")
    }

    /// A URL refused as a flag is named, never repeated with its password, as when it comes from its variable.
    @Test("a refused URL is never echoed with its password, from a flag or a variable")
    func refusedURLsKeepTheirPasswords() {
        let serve = ["serve", "--print-configuration"]
        let cases: [([String], [String: String])] = [
            (["--db", "x.sqlite", "--db-read", "postgres://user:hunter2pw@db.example/x?bogus=1"], [:]),
            (["--db", "x.sqlite"], ["ONCUE_DB_READ": "postgres://user:hunter2pw@db.example/x?bogus=1"]),
            (["--db", "x.sqlite", "--geocoder", "ftp://user:hunter2pw@example.org"], [:]),
            (["--db", "x.sqlite"], ["ONCUE_GEOCODER": "ftp://user:hunter2pw@example.org"]),
            (["--db", "postgres://user:hunter2pw@db.example:notaport/x"], [:]),
        ]
        for (flags, variables) in cases {
            let run = ServeInProcess.run(serve + flags, environment: variables)
            #expect(run.status == 2, "\(flags) \(variables): \(run.stderr)")
            #expect(!run.stderr.contains("hunter2pw") && !run.stdout.contains("hunter2pw"), "\(flags) \(variables): \(run.stderr)")
        }
    }
}
