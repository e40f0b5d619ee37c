import ArgumentParser
import ChainImport
import Foundation
import HTTPTypes
import LocationStore
import RegionRefresh
import TestSupport
import Testing

@testable import RefreshServer
@testable import oncue

/// The settings table (`ServerSettings`) against everything said to come from it: the flags and variables of the real
/// `oncue serve`, its defaults, README's table, and the one rule for a network's radius.
@Suite("One settings table")
struct ServerSettingsTests {
    // MARK: Flags and variables

    static let flagged = ServerSettings.all.filter { $0.flag != nil }.map(\.variable)

    /// For every setting with a flag: values generated from its bounds (inside, on them, past them, malformed, empty)
    /// given to `oncue serve --print-configuration` as the flag (`--port V` and `--port=V`) and as the variable. All must
    /// accept or all refuse; accepted, all must resolve to the same configuration; refused, each message names what was
    /// given. The command is the binary's own (`Serve`, parsed by ArgumentParser from the same arguments) run in process:
    /// some 800 cases, which as child processes cost minutes of the suite; `theBinaryPrintsWhatTheCommandResolves`
    /// holds the binary to the same answers. (`--port=` with nothing after it is the argument parser's "missing
    /// value"; an empty flag is `--port ''`.)
    @Test(arguments: flagged)
    func flagAndVariableAcceptAndRefuseTheSameValues(variable: String) throws {
        let setting = try #require(ServerSettings.all.first { $0.variable == variable })
        let flag = try #require(setting.option)
        let files = try TokenFiles()
        defer { files.remove() }
        let values = try Self.samples(for: setting, files: files)
        let serve = ["serve", "--db", "/nonexistent/store.sqlite", "--print-configuration"]
        var accepted = 0
        var refused = 0
        for value in values {
            let byVariable = ServeInProcess.run(serve, environment: [variable: value])
            // `--flag=V` goes to the same parser as `--flag V`; it is asked for the first value and for those that begin
            // with `-`, which only that form keeps from being read as another option. (Each in-process parse costs some
            // 30 ms in a debug build, nearly all of it the argument parser's reflection: every value in both forms made
            // this the suite's costliest test.)
            let joined = !value.isEmpty && (value == values.first || value.hasPrefix("-"))
            for given in joined ? [[flag, value], ["\(flag)=\(value)"]] : [[flag, value]] {
                let byFlag = ServeInProcess.run(serve + given, environment: [:])
                #expect(
                    (byFlag.status == 0) == (byVariable.status == 0),
                    "\(given) → \(byFlag.status) \(byFlag.stderr); \(variable)='\(value)' → \(byVariable.status) \(byVariable.stderr)"
                )
                if byFlag.status == 0 && byVariable.status == 0 {
                    #expect(byFlag.stdout == byVariable.stdout, "'\(value)' resolves differently as \(given) and as \(variable)")
                } else if byFlag.status != 0 && byVariable.status != 0 {
                    #expect(byFlag.stderr.contains(flag), "\(byFlag.stderr)")
                    #expect(byVariable.stderr.contains(variable), "\(byVariable.stderr)")
                }
            }
            if byVariable.status == 0 { accepted += 1 } else { refused += 1 }
        }
        // Samples that all pass (or all fail) would prove nothing.
        #expect(accepted >= 2 && refused >= 2, "\(variable): \(accepted) accepted, \(refused) refused of \(values)")
    }

    /// The binary answers as the in-process command does: the same printed settings for flags and variables it accepts,
    /// exit 2 with the same message for what it refuses, and the flag winning over its variable.
    @Test func theBinaryPrintsWhatTheCommandResolves() async throws {
        let serve = ["serve", "--db", "/nonexistent/store.sqlite", "--print-configuration"]
        let cases: [([String], [String: String])] = [
            (["--port", "9001", "--head-timeout=250ms", "--trusted-proxy", "10.0.0.0/8"], ["ONCUE_LOG_LEVEL": "warning"]),
            (["--port", "9001"], ["ONCUE_PORT": "nonsense"]),
            ([], ["ONCUE_RATE_LIMIT_RPS": "2.5", "ONCUE_CLIENT_IP_HEADER": "X-Real-IP"]),
            (["--port", "70000"], [:]),
            ([], ["ONCUE_HEAD_TIMEOUT": "25h"]),
            (["--port="], [:]),
        ]
        for (flags, variables) in cases {
            let binary = try await OncueBinary.run(serve + flags, environment: variables)
            let command = ServeInProcess.run(serve + flags, environment: variables)
            #expect(binary.status == command.status, "\(flags) \(variables): binary \(binary.status) \(binary.stderr)")
            #expect(binary.stdout == command.stdout, "\(flags) \(variables)")
            if command.status != 0 {
                #expect(binary.status == 2 && binary.stderr.contains(command.stderr), "\(binary.stderr) ∌ \(command.stderr)")
            }
        }
    }

    /// The variable-only setting, in process (the binary reads every variable through the same function).
    @Test func theAdminTokenHasNoFlagAndIsNeverEchoed() throws {
        #expect(ServerSettings.adminToken.flag == nil)
        let token = "0123456789abcdef"
        #expect(try ServerSettings.configuration(environment: ["ONCUE_ADMIN_TOKEN": token]).adminToken == token)
        #expect(try ServerSettings.configuration(environment: ["ONCUE_ADMIN_TOKEN": ""]).adminToken == nil)
        let error = #expect(throws: ConfigurationError.self) {
            _ = try ServerSettings.configuration(environment: ["ONCUE_ADMIN_TOKEN": "secret-shorty"])
        }
        #expect(error?.description.contains("secret-shorty") == false)
        #expect(error?.description.contains("ONCUE_ADMIN_TOKEN") == true)
    }

    /// Values for a setting's type: in range, on each bound, just past each, malformed, and empty (the default).
    static func samples(for setting: any ServerSettingDescription, files: TokenFiles) throws -> [String] {
        switch setting.bounds {
        case .integers(let range):
            let (low, high) = (range.lowerBound, range.upperBound)
            return [
                "\(low)", "\(high)", "\(low + (high - low) / 2)", "\(low - 1)", "\(high + 1)", "+\(low + 1)",
                "1.5", "12abc", " \(low)", "0x10", "9223372036854775808", "",
            ]
        case .numbers(let range, _):
            let (low, high) = (range.lowerBound, range.upperBound)
            return [
                "\(low)", "\(high)", "\((low + high) / 2)", "\(low.nextDown)", "\(high.nextUp)", "1e2",
                "nan", "inf", "-inf", "1,5", "fast", "",
            ]
        case .durations(let range):
            func seconds(_ duration: Duration, plus nanoseconds: Int64) -> String {
                let total = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000 + nanoseconds
                return String(format: "%.9f", Double(total) / 1e9)
            }
            let (low, high) = (range.lowerBound, range.upperBound)
            return [
                SettingText.duration(low), SettingText.duration(high), seconds(low, plus: 0), seconds(high, plus: 0),
                seconds(low, plus: -1), seconds(high, plus: 1), "1.5", "500ms", "2m", "1h", "25h", "-1s",
                "10 s", "10sec", "s", "inf", "",
            ]
        case .choices(let words):
            return words + [words[0].uppercased(), "verbose", "\(words[0]) ", ""]
        case .form:
            return try #require(formSamples(files)[setting.variable], "write samples for \(setting.variable), a setting of a new form")
        }
    }

    static func formSamples(_ files: TokenFiles) -> [String: [String]] {
        [
            "ONCUE_DB_READ": [
                "postgres://oncue:pw@db.example/oncue", "postgresql://db.example:6432/x?sslmode=require",
                "http://db.example/x", "postgres://", "postgres://db.example/x?bogus=1", "not a url", "",
            ],
            "ONCUE_HOST": ["0.0.0.0", "::1", "localhost", "my host", "a\tb", ""],
            "ONCUE_ADMIN_TOKEN_FILE": [files.good, files.short, files.directory, files.missing, ""],
            "ONCUE_CLIENT_JWT": [files.secret, files.jwks, files.notJWKS, files.short, files.directory, files.missing, ""],
            "ONCUE_CLIENT_JWT_ISSUER": ["https://auth.example.com", "a\tb", String(repeating: "x", count: 501), ""],
            "ONCUE_CLIENT_JWT_AUDIENCE": ["oncue-api", "a\nb", String(repeating: "x", count: 501), ""],
            "ONCUE_CLIENT_IP_HEADER": ["X-Forwarded-For", "x-real-ip", "X Forwarded", "X-Forwarded-For:", "é", ""],
            "ONCUE_TRUSTED_PROXIES": [
                "10.0.0.0/8", "10.1.2.3,::1", "2001:db8::/32", " 192.168.0.0/16 ", "10.0.0.0/33", "300.1.1.1", "10.0.0.0/8,", "fe80::/x", "",
            ],
            "ONCUE_GEOCODER": [
                "http://127.0.0.1:8088", "https://u:pw@nominatim.example/search", "ftp://nominatim.example",
                "http://", "nominatim.example", "", "local=http://127.0.0.1:8088,photon=https://photon.example",
                "Bad Name=http://127.0.0.1:8088", "a=http://x.example,a=http://y.example",
            ],
            "ONCUE_CONSOLE_TILES": [
                "https://tiles.example.org/{z}/{x}/{y}.png", "http://127.0.0.1:8090/{z}/{x}/{y}", "https://{s}.t.example/{z}/{x}/{y}@2x.png",
                "https://tiles.example.org/{z}/{x}.png", "tiles.example.org/{z}/{x}/{y}", "ftp://t.example/{z}/{x}/{y}", "",
            ],
            "ONCUE_CONSOLE_TILES_ATTRIBUTION": [
                "© OpenStreetMap contributors", "Tiles © Example, CC BY 4.0", "a\tb", String(repeating: "x", count: 201), "",
            ],
        ]
    }

    /// Admin token files: one good, one with a short token, a directory and a path that does not exist.
    struct TokenFiles {
        let directory: String
        var good: String { directory + "/good" }
        var short: String { directory + "/short" }
        var missing: String { directory + "/missing" }
        /// An HS256 secret of 32 bytes, a JWKS document with one P-256 key, and JSON that is not a JWKS.
        var secret: String { directory + "/secret" }
        var jwks: String { directory + "/jwks.json" }
        var notJWKS: String { directory + "/not-jwks.json" }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-settings-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data("  0123456789abcdef-token  \nsecond line\n".utf8).write(to: URL(fileURLWithPath: good))
            try Data("short\n".utf8).write(to: URL(fileURLWithPath: short))
            try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: secret))
            try Data(Self.jwksDocument.utf8).write(to: URL(fileURLWithPath: jwks))
            try Data(#"{"issuer": "https://auth.example.com"}"#.utf8).write(to: URL(fileURLWithPath: notJWKS))
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }

        /// RFC 7517 appendix A.1's P-256 public key.
        static let jwksDocument = #"""
            {"keys": [{"kty": "EC", "crv": "P-256", "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
             "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM", "use": "sig", "alg": "ES256", "kid": "1"}]}
            """#
    }

    // MARK: Resolution

    @Test func aFlagWinsOverItsVariableAndAnEmptyValueIsTheDefault() throws {
        let both = try ServerSettings.configuration(environment: ["ONCUE_PORT": "9000"], flags: ["port": "9001"])
        #expect(both.port == 9001)
        // A flag given replaces its variable, which is then not read at all.
        #expect(try ServerSettings.configuration(environment: ["ONCUE_PORT": "nonsense"], flags: ["port": "9001"]).port == 9001)
        #expect(try ServerSettings.configuration(environment: ["ONCUE_PORT": "9000"], flags: ["port": ""]).port == 8080)
        #expect(try ServerSettings.configuration(environment: ["ONCUE_PORT": ""]).port == 8080)
    }

    @Test func theAdminTokenComesFromTheFlagThenTheTokenThenTheFile() throws {
        let files = try TokenFiles()
        defer { files.remove() }
        let token = "from-the-variable-0123"
        let variables = ["ONCUE_ADMIN_TOKEN": token, "ONCUE_ADMIN_TOKEN_FILE": files.missing]
        // The token variable wins over the file variable, which is still checked.
        #expect(throws: ConfigurationError.self) { _ = try ServerSettings.configuration(environment: variables) }
        #expect(
            try ServerSettings.configuration(environment: ["ONCUE_ADMIN_TOKEN": token, "ONCUE_ADMIN_TOKEN_FILE": files.good]).adminToken == token
        )
        #expect(try ServerSettings.configuration(environment: ["ONCUE_ADMIN_TOKEN_FILE": files.good]).adminToken == "0123456789abcdef-token")
        #expect(
            try ServerSettings.configuration(environment: variables, flags: ["admin-token-file": files.good]).adminToken
                == "0123456789abcdef-token"
        )
    }

    @Test func aRateOfZeroDisablesLimitingWhateverTheBurst() throws {
        #expect(try ServerSettings.configuration(environment: ["ONCUE_RATE_LIMIT_RPS": "0"], flags: ["rate-limit-burst": "7"]).rateLimit == nil)
        let limited = try ServerSettings.configuration(
            environment: ["ONCUE_RATE_LIMIT_RPS": "0", "ONCUE_RATE_LIMIT_BURST": "7"],
            flags: ["rate-limit-rps": "5"]
        )
        #expect(limited.rateLimit == .init(requestsPerSecond: 5, burst: 7))
        #expect(try ServerSettings.configuration(environment: [:]).rateLimit == ServerConfiguration.defaultRateLimit)
    }

    @Test func durationsAreReadToTheNanosecond() throws {
        let cases: [(String, Duration)] = [
            ("0.1", .milliseconds(100)), ("100ms", .milliseconds(100)), ("1.5", .milliseconds(1_500)),
            ("2m", .seconds(120)), ("1h", .seconds(3_600)), ("0.000000001s", .nanoseconds(1)),
        ]
        for (text, expected) in cases {
            #expect(try ServerSettings.shutdownTimeout.value(parsing: text, from: "--shutdown-timeout") == expected, "\(text)")
        }
        #expect(SettingText.duration(.milliseconds(1_500)) == "1500ms")
        #expect(SettingText.duration(.nanoseconds(1_500_000_001)) == "1.500000001s")
        #expect(SettingText.duration(.seconds(900)) == "15m")
        #expect(SettingText.duration(.zero) == "0s")
        let configuration = try ServerSettings.configuration(environment: ["ONCUE_HEAD_TIMEOUT": "250ms"])
        #expect(configuration.connections.headTimeout == .milliseconds(250))
    }

    /// The defaults a library user gets from `ServerConfiguration(database:)` and `ConnectionLimits()` are the table's.
    @Test func theDefaultsAreTheTables() throws {
        #expect(try ServerSettings.configuration(environment: [:]) == ServerConfiguration(database: ""))
    }

    /// What `--print-configuration` prints can be given back as variables and means the same.
    @Test func printedSettingsReadBackAsVariables() throws {
        let environment = [
            "ONCUE_PORT": "0", "ONCUE_HEAD_TIMEOUT": "1.5", "ONCUE_UPLOAD_TIMEOUT": "2h", "ONCUE_RATE_LIMIT_RPS": "0.5",
            "ONCUE_CLIENT_IP_HEADER": "X-Forwarded-For", "ONCUE_LOG_LEVEL": "WARNING", "ONCUE_GEOCODER": "http://127.0.0.1:1",
        ]
        let printed = ServerSettings.printed(try ServerSettings.configuration(environment: environment))
        var again: [String: String] = [:]
        for line in printed.split(separator: "\n") {
            let (name, value) = (line.prefix { $0 != "=" }, line.drop { $0 != "=" }.dropFirst())
            again[String(name)] = String(value)
        }
        #expect(again.count == ServerSettings.all.count - 1)  // the token file has no value of its own
        #expect(ServerSettings.printed(try ServerSettings.configuration(environment: again)) == printed)
    }

    @Test func aSecretIsNeverRepeated() throws {
        for (variable, text) in [("ONCUE_GEOCODER", "ftp://user:hunter2pw@example.org"), ("ONCUE_DB_READ", "postgres://user:hunter2pw@/x")] {
            let error = #expect(throws: ConfigurationError.self) { _ = try ServerSettings.configuration(environment: [variable: text]) }
            #expect(error?.description.contains("hunter2pw") == false, "\(error?.description ?? "")")
        }
        let configuration = try ServerSettings.configuration(environment: [
            "ONCUE_GEOCODER": "https://user:hunter2pw@example.org",
            "ONCUE_DB_READ": "postgres://user:hunter2pw@db/x",
            "ONCUE_ADMIN_TOKEN": "hunter2pw-hunter2pw",
        ])
        #expect(!ServerSettings.printed(configuration).contains("hunter2pw"))
    }

    // MARK: Help and README

    @Test func serveHelpNamesEveryFlagAndVariable() async throws {
        let help = try await OncueBinary.run(["serve", "--help"]).stdout
        for setting in ServerSettings.all {
            #expect(help.contains(setting.variable), "\(setting.variable)")
            if let option = setting.option { #expect(help.contains(option), "\(option)") }
        }
    }

    /// README's table is `ServerSettings.markdownTable`; on a difference the message holds the table to paste.
    @Test func readmeTableIsTheTable() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let header = ServerSettings.markdownTable.split(separator: "\n")[0]
        guard let start = lines.firstIndex(of: header) else {
            Issue.record("README has no settings table (its header is \(header)); paste:\n\(ServerSettings.markdownTable)")
            return
        }
        let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        #expect(table == ServerSettings.markdownTable, "README's settings table is stale; replace it with:\n\(ServerSettings.markdownTable)")
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // MARK: A network's radius

    /// `oncue networks set --default-radius-m` and `PUT /admin/networks/{id}` keep one rule, the engine's; the command
    /// line's 0 ("no radius", JSON's null) is the one spelling they do not share. The OpenAPI document says the same.
    @Test func theCommandLineAndTheAdminAPIAcceptTheSameNetworkRadii() async throws {
        let radii: [Double] = [-3, 1e-9, 0.5, 150, 50_000, 50_000.5, 1e6]
        let store = try TestStore()
        defer { store.remove() }
        for radius in radii {
            let cli = try await OncueBinary.run(["networks", "set", "x", "--db", store.path, "--default-radius-m=\(radius)"])
            #expect((cli.status == 0) == EngineConfiguration.isValidNetworkRadius(radius), "\(radius): \(cli.stderr)")
        }
        #expect(try await OncueBinary.run(["networks", "set", "x", "--db", store.path, "--default-radius-m=0"]).status == 0)
        try await withServer { client, _ in
            for radius in radii + [0] {
                let put = try await client.send(
                    .put,
                    "/admin/networks/x",
                    route: "/admin/networks/{id}",
                    headers: .admin,
                    body: #"{"name": "X", "default_radius_meters": \#(radius)}"#
                )
                #expect((put.status == 200) == EngineConfiguration.isValidNetworkRadius(radius), "\(radius): \(put.text)")
            }
        }
        let schema = OpenAPIContract.shared.resolve("#/components/schemas/NetworkInput")?["properties"]?["default_radius_meters"]
        #expect(schema?["exclusiveMinimum"]?.string.flatMap(Double.init) == 0)
        #expect(schema?["maximum"]?.string.flatMap(Double.init) == EngineConfiguration.maximumNetworkRadiusMeters)
    }
}

/// The built `oncue` executable, run to completion with a bare environment (off the cooperative pool: `ChildProcess`).
enum OncueBinary {
    typealias Result = ChildProcessResult

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let binary = try #require(ServeProcess.binary, "build the oncue executable first (swift build)")
        let bare = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"].merging(environment) { $1 }
        return try await ChildProcess.run(binary, arguments, environment: bare)
    }
}

/// `oncue serve …` parsed and resolved in this process as `Main` does in the binary, up to the point where the binary
/// would print the settings (`--print-configuration`) or its error; no socket, no store.
enum ServeInProcess {
    static func run(_ arguments: [String], environment: [String: String]) -> ChildProcessResult {
        do {
            guard let serve = try OnCue.parseAsRoot(arguments) as? Serve else {
                return ChildProcessResult(status: 2, stdout: "", stderr: "not a serve command: \(arguments)")
            }
            let configuration = try serve.checkedConfiguration(environment: environment)
            return ChildProcessResult(status: 0, stdout: ServerSettings.printed(configuration) + "\n", stderr: "")
        } catch {
            // The binary's exit codes (`Main.exit(with:)`): 2 for bad usage, 1 for anything else.
            let status: Int32 = OnCue.exitCode(for: error) == .validationFailure ? 2 : 1
            return ChildProcessResult(status: status, stdout: "", stderr: OnCue.message(for: error))
        }
    }
}
