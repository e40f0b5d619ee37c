import ArgumentParser
import Foundation
import OnCueClient
import OnCueContract

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A phone population and an admin against a running fleet (scripts/fleet.sh drill): what every request met, kept
/// for the drill's report rather than summarised here, since only the drill knows when its fault began.
struct BenchPhones: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phones",
        abstract: "Virtual phones asking a server for regions through OnCueClient's RefreshClient, and an admin writing, for a fixed time.",
        discussion: """
            Each of --phones phones stands at one of the --queries points (the anchor kit's queries.csv: qid,lon,lat,
            pref_network), holds a card for its preferred chain, and asks POST /v1/region-refresh --refreshes-per-hour
            times an hour on average (Poisson arrivals), through RefreshClient with its default retry policy (3 calls,
            Retry-After first, else 1 s doubling). With --admin-token-file an admin also imports --import-rows new rows
            of network --network every --import-every seconds (POST /admin/imports; a batch that failed is sent again
            until it is acknowledged) and adds one location every --write-every seconds (POST /admin/locations).

            Writes to --out: requests.csv (started_unix,seconds,outcome,calls; outcome ok or the last failure) and
            writes.csv (kind,batch,started_unix,finished_unix,status,rows; status the HTTP status, 0 when no answer
            came). While an import is in flight --out/import-in-flight holds its batch number, so a drill can strike
            during one.

            Example:
              Benchmarks/.build/release/oncue-bench phones --url http://127.0.0.1:16080 \\
                --queries /tmp/geo-anchors/data/queries.csv --seconds 30 --out /tmp/phones \\
                --admin-token-file /tmp/oncue-fleet/admin-token --network fleet-drill
            """
    )
    @Option(help: "The server (or balancer) base URL.") var url: String
    @Option(help: "Query points, CSV qid,lon,lat,pref_network.") var queries: String
    @Option(help: "Virtual phones.") var phones = 60_000
    @Option(help: "Refresh calls per phone per hour (the study measures 1 to 8 for a phone on the move).") var refreshesPerHour = 8.0
    @Option(help: "Seconds to run.") var seconds = 30.0
    @Option(help: "Directory for requests.csv and writes.csv (created).") var out: String
    @Option(help: "File whose first line is an admin token; without it, no admin writes.") var adminTokenFile: String?
    @Option(help: "The network the admin's rows go to.") var network = "fleet-drill"
    @Option(
        help: "Points for the admin's rows: a CSV with lat and lon columns (default --queries; the fleet gives its own locations, which are on land)."
    )
    var adminPoints: String?
    @Option(help: "Rows per import.") var importRows = 300
    @Option(help: "Seconds between imports.") var importEvery = 4.0
    @Option(help: "Seconds between single-location writes.") var writeEvery = 0.5
    @Option(help: "Requests in flight at most; arrivals beyond it are recorded as shed.") var maxInFlight = 512
    @Option(help: "Seed of the arrivals and of which phone asks.") var seed: UInt64 = 1

    func validate() throws {
        guard phones > 0, refreshesPerHour > 0, seconds > 0, importRows > 0, importEvery > 0, writeEvery > 0 else {
            throw ValidationError("--phones, --refreshes-per-hour, --seconds, --import-rows, --import-every and --write-every must be above 0")
        }
        guard URL(string: url)?.host != nil else { throw ValidationError("--url \(url) is not an http URL") }
    }

    func run() async throws {
        let base = URL(string: url)!
        let points = try QueryPoint.read(queries)
        guard !points.isEmpty else { throw ValidationError("\(queries) has no query rows") }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let log = try PhoneLog(directory: out)
        let session = Self.session(connections: 64)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let token = try adminTokenFile.map { try String(contentsOfFile: $0, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? "" }
        let rowPoints = try adminPoints.map(QueryPoint.read) ?? points
        guard !rowPoints.isEmpty else { throw ValidationError("\(adminPoints ?? queries) has no rows with lat and lon") }
        let admin = token.map { AdminWriter(base: base, token: $0, network: network, points: rowPoints, session: session, log: log) }
        await withTaskGroup(of: Void.self) { group in
            if let admin {
                group.addTask { await admin.importEvery(importEvery, rows: importRows, until: deadline, marker: "\(out)/import-in-flight") }
                group.addTask { await admin.writeEvery(writeEvery, until: deadline) }
            }
            group.addTask {
                await PhonePopulation(
                    phones: phones, points: points, ratePerSecond: Double(phones) * refreshesPerHour / 3600,
                    maxInFlight: maxInFlight, seed: seed
                ).run(base: base, session: session, until: deadline, log: log)
            }
        }
        try await log.close()
    }

    /// One session for every call, with enough connections per host that a slow answer does not queue the others.
    static func session(connections: Int) -> URLSession {
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }
}

/// One row of the anchor kit's queries.csv.
struct QueryPoint: Sendable {
    var lat: Double
    var lon: Double
    var network: String

    static func read(_ path: String) throws -> [QueryPoint] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let lat = header.firstIndex(of: "lat"), let lon = header.firstIndex(of: "lon") else {
            throw ValidationError("\(path) has no lat and lon columns")
        }
        let network = header.firstIndex(of: "pref_network")
        lines.removeFirst()
        return lines.compactMap { row in
            guard row.count == header.count, let y = Double(row[lat]), let x = Double(row[lon]) else { return nil }
            return QueryPoint(lat: y, lon: x, network: network.map { row[$0] } ?? "")
        }
    }
}
