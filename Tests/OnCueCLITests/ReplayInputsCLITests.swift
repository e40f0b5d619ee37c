import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// What `oncue replay` says on the terminal about imperfect traces: a cut-off file is replayed with a `warning:`, a
/// file without times is refused with `error:` naming --invent-times, and traces far from every card location are
/// said to be so.
@Suite struct ReplayInputsCLITests {
    static func gpx(points: Int, timed: Bool, lat: Double) -> String {
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg>"# + "\n"
        for i in 0..<points {
            let time = timed ? "<time>2025-06-01T10:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z</time>" : ""
            s += #"<trkpt lat="\#(lat + Double(i) * 0.00002)" lon="-74.0060">\#(time)</trkpt>"# + "\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    @Test func imperfectTracesAreSaidOnTheTerminal() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "costco", name: "Costco"))
        _ = try store.upsert([
            Location(networkId: "costco", externalId: "1", name: "Costco", coordinate: try .init(latitude: 40.7130, longitude: -74.0060))
        ])
        let wallet = dir.appendingPathComponent("w.json").path
        try Data(#"{"cards": [{"network_id": "costco", "name": "Costco"}]}"#.utf8).write(to: URL(fileURLWithPath: wallet))
        func file(_ name: String, _ text: String) throws -> String {
            let p = dir.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: p))
            return p
        }
        let whole = Self.gpx(points: 600, timed: true, lat: 40.7100)
        let cut = try file("cut.gpx", String(whole.prefix(whole.count * 2 / 3)))
        let replayed = try await CLIRunner.run(["replay", cut, "--db", path, "--wallet", wallet])
        #expect(replayed.status == 0 && replayed.stderr.contains("warning: cut.gpx: GPX is truncated"), "\(replayed.stderr)")
        #expect(replayed.stdout.contains("1 traces"), "what was read is replayed")
        let refused = try await CLIRunner.run(["replay", cut, "--db", path, "--wallet", wallet, "--refuse-truncated"])
        #expect(refused.status == 1 && refused.stderr.contains("error: "), "\(refused.stderr)")

        let untimed = try file("untimed.gpx", Self.gpx(points: 50, timed: false, lat: 40.7100))
        let noTimes = try await CLIRunner.run(["replay", untimed, "--db", path, "--wallet", wallet])
        #expect(noTimes.status == 1 && noTimes.stderr.contains("error: ") && noTimes.stderr.contains("--invent-times"), "\(noTimes.stderr)")
        let invented = try await CLIRunner.run(["replay", untimed, "--db", path, "--wallet", wallet, "--invent-times"])
        #expect(invented.status == 0 && invented.stderr.contains("warning: untimed.gpx: 50 of 50 points have no time"), "\(invented.stderr)")

        let far = try file("far.gpx", Self.gpx(points: 50, timed: true, lat: 39.9))
        let nowhere = try await CLIRunner.run(["replay", far, "--db", path, "--wallet", wallet])
        #expect(nowhere.status == 0 && nowhere.stderr.contains("no trace passes within 1,000 m"), "\(nowhere.stderr)")
    }
}
