import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An admin changing the fleet while the phones ask: imports of new rows every few seconds (a failed batch is sent
/// again, as an admin would, until it is acknowledged) and single locations added in between. Row `i` of import
/// batch `b` has the external id `b<b>-<i>`; single location `n` has `w<n>`: the drill finds every acknowledged row
/// on the new leader by these ids.
struct AdminWriter: Sendable {
    var base: URL
    var token: String
    var network: String
    var points: [QueryPoint]
    var session: URLSession
    var log: PhoneLog
    /// Set once the first import is acknowledged: it creates the network that single locations are added to.
    let networkExists = NetworkCreated()

    func importEvery(_ seconds: Double, rows: Int, until deadline: ContinuousClock.Instant, marker: String) async {
        var batch = 0
        var next = ContinuousClock.now
        while next < deadline {
            try? await Task.sleep(until: next, clock: .continuous)
            next += .milliseconds(Int(seconds * 1000))
            _ = FileManager.default.createFile(atPath: marker, contents: Data("\(batch)\n".utf8))
            let started = Date()
            let (status, answer) = await send(
                "admin/imports", query: [("network", network), ("file_name", "batch-\(batch).csv")], type: "text/csv",
                body: Data(csv(batch: batch, rows: rows).utf8))
            try? FileManager.default.removeItem(atPath: marker)
            let rejected = (answer?["totals"] as? [String: Any])?["rejected"] as? Int ?? 0
            await log.write(kind: "import", batch: batch, started: started, finished: Date(), status: status, rows: rows, rejected: rejected)
            if status == 200 {
                batch += 1
                networkExists.flag.store(true, ordering: .releasing)
            } else {
                next = min(next, ContinuousClock.now + .seconds(1))
            }
        }
    }

    func writeEvery(_ seconds: Double, until deadline: ContinuousClock.Instant) async {
        var number = 0
        var next = ContinuousClock.now
        while next < deadline {
            try? await Task.sleep(until: next, clock: .continuous)
            next += .milliseconds(Int(seconds * 1000))
            guard networkExists.flag.load(ordering: .acquiring) else { continue }
            let point = points[(number * 7919) % points.count]
            let body: [String: Any] = [
                "network": network, "id": "w\(number)", "name": "Drill write \(number)", "lat": point.lat, "lon": point.lon,
            ]
            let started = Date()
            let (status, _) = await send(
                "admin/locations", query: [], type: "application/json", body: try! JSONSerialization.data(withJSONObject: body))
            await log.write(kind: "location", batch: number, started: started, finished: Date(), status: status, rows: 1, rejected: 0)
            number += 1
        }
    }

    /// Batch `batch`'s rows, at the points the fleet's own locations stand on, moved about 30 m so that they are new.
    func csv(batch: Int, rows: Int) -> String {
        var text = "store_id,name,lat,lon\n"
        for i in 0..<rows {
            let point = points[(batch * rows + i) % points.count]
            text += "b\(batch)-\(i),Drill \(batch) \(i)," + String(format: "%.6f,%.6f\n", point.lat + 0.0003, point.lon + 0.0003)
        }
        return text
    }

    /// The status (0 when no answer came) and the answer's JSON object.
    func send(_ path: String, query: [(String, String)], type: String, body: Data) async -> (Int, [String: Any]?) {
        var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        var request = URLRequest(url: components.url!, timeoutInterval: 60)
        request.httpMethod = "POST"
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = body
        guard let (data, response) = try? await session.data(for: request), let http = response as? HTTPURLResponse else { return (0, nil) }
        return (http.statusCode, try? JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Whether the drill's network exists yet.
final class NetworkCreated: Sendable {
    let flag = Atomic<Bool>(false)
}
