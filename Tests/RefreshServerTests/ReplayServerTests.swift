import Foundation
import TestSupport
import Testing

/// `oncue replay --server` measures the strategies only if the server answered: calls a default server refuses (its
/// per-client rate limit) used to count as scenario failures, silently, with exit 0.
@Suite("replay against a server", .serialized)
struct ReplayServerTests {
    /// A walk of 40 minutes through San Francisco past the test store's Costco, a fix every 10 s.
    static func gpx() -> String {
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"#
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        for i in 0..<240 {
            let lat = 37.7400 + Double(i) * 0.00025
            let lon = -122.4130 + sin(Double(i) / 20) * 0.002
            let time = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(i) * 10))
            text += #"<trkpt lat="\#(lat)" lon="\#(lon)"><time>\#(time)</time></trkpt>"#
        }
        return text + "</trkseg></trk></gpx>"
    }

    /// The test store, the walk past its Costco, and a wallet with a Costco card.
    static func fixture() throws -> (TestStore, URL, URL) {
        let store = try TestStore()
        let trace = store.directory.appendingPathComponent("walk.gpx")
        try Data(gpx().utf8).write(to: trace)
        let wallet = store.directory.appendingPathComponent("wallet.json")
        try Data(#"{"cards": [{"network_id": "costco", "name": "Costco"}]}"#.utf8).write(to: wallet)
        return (store, trace, wallet)
    }

    @Test("refused calls end the replay with exit 1 and the remedy, unless --allow-server-errors")
    func refusedCallsAreNotMeasuredSilently() async throws {
        let (store, trace, wallet) = try Self.fixture()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, arguments: ["--rate-limit-rps", "0.01", "--rate-limit-burst", "1"])
        func replay(port: Int) -> [String] {
            [
                "replay", trace.path, "--db", store.path, "--wallet", wallet.path, "--server", "http://127.0.0.1:\(port)",
                "--strategy", "guaranteed", "--strategy", "fixed",
            ]
        }
        let refused = try await OncueBinary.run(replay(port: server.port))
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("refresh calls to the server failed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("HTTP 429") && refused.stderr.contains("--rate-limit-rps 0"), "\(refused.stderr)")
        // The table still shows what happened, with the failures in a column of their own.
        #expect(refused.stdout.contains("refresh fails"), "\(refused.stdout)")
        let allowed = try await OncueBinary.run(replay(port: server.port) + ["--allow-server-errors"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("warning:"))
        // A server that answers every call: no message, exit 0.
        let open = try await ServeProcess(store: store.path, arguments: ["--rate-limit-rps", "0"])
        let answered = try await OncueBinary.run(replay(port: open.port))
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(!answered.stderr.contains("failed"))
    }

    @Test("a server run with --client-jwt answers a replay given the app's token in --token-file, and refuses one without")
    func accessToken() async throws {
        let (store, trace, wallet) = try Self.fixture()
        defer { store.remove() }
        let secret = store.directory.appendingPathComponent("jwt-secret")
        try Data(ClientTokenTests.secret).write(to: secret)
        let tokenFile = store.directory.appendingPathComponent("token")
        var claims = ClientTokenTests.claims()
        claims.removeValue(forKey: "iss")
        claims.removeValue(forKey: "aud")
        try Data((HandSignedJWT.hs256(claims, secret: ClientTokenTests.secret) + "\n").utf8).write(to: tokenFile)
        let server = try await ServeProcess(store: store.path, arguments: ["--rate-limit-rps", "0", "--client-jwt", secret.path])
        let replay = [
            "replay", trace.path, "--db", store.path, "--wallet", wallet.path, "--server", "http://127.0.0.1:\(server.port)", "--strategy",
            "guaranteed",
        ]
        let without = try await OncueBinary.run(replay)
        #expect(without.status == 1 && without.stderr.contains("HTTP 401") && without.stderr.contains("--token-file"), "\(without.stderr)")
        let with = try await OncueBinary.run(replay + ["--token-file", tokenFile.path])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(!with.stderr.contains("failed"), "\(with.stderr)")
    }
}
