import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing

@testable import RefreshServer

@Suite("logs never hold precise coordinates")
struct LogPrivacyTests {
    @Test func capturedLogsAtTraceLevelHoldOnlyCoarseCells() async throws {
        let logs = LogCapture()
        let positions = [(37.774912, -122.419415), (37.802139, -122.41874), (37.7303, -122.38411)]
        try await withServer(logs: logs) { client, _ in
            for (lat, lon) in positions {
                let reply = try await client.send(
                    .post, "/v1/region-refresh", headers: [.requestID: "privacy-check-1"],
                    body: #"{"lat": \#(lat), "lon": \#(lon), "user_networks": ["costco"]}"#)
                #expect(reply.status == 200)
                #expect(reply.headers[.requestID] == "privacy-check-1")
            }
            // Refused requests quote the bad value to the client; the log must not.
            let bad = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 95.123456, "lon": -122.419415}"#)
            #expect(bad.status == 400)
            #expect(bad.json?["message"]?.string?.contains("95.123456") == true)
        }
        let lines = logs.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("request_id=privacy-check-1") && $0.contains("route=/v1/region-refresh") })
        // The debug line carries a 5-character geohash cell (~5 km), the finest location a log may hold.
        #expect(lines.contains { $0.contains("cell=9q8yy") })
        var needles = ["95.123456", "95.12"]
        for (lat, lon) in positions {
            needles += [String(lat), String(lon), String(format: "%.3f", lat), String(format: "%.3f", lon)]
        }
        for line in lines {
            for needle in needles { #expect(!line.contains(needle), "log line holds \(needle): \(line)") }
            // Any geohash in a log is at most 5 characters.
            if let range = line.range(of: "cell=") {
                #expect(line[range.upperBound...].prefix { $0.isLetter || $0.isNumber }.count <= 5)
            }
        }
        #expect(lines.count >= 4)
    }
}
