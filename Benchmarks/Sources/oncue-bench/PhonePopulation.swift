import Foundation
import Geo
import OnCueClient
import OnCueContract
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Phones asking for regions as a Poisson process of the population's total rate: each arrival is one phone, drawn
/// at random, standing near its query point and holding a card for that point's preferred chain.
struct PhonePopulation: Sendable {
    var phones: Int
    var points: [QueryPoint]
    var ratePerSecond: Double
    var maxInFlight: Int
    var seed: UInt64

    func run(base: URL, session: URLSession, until deadline: ContinuousClock.Instant, log: PhoneLog) async {
        var random = SeededRandom(seed: seed)
        let inFlight = InFlightCount()
        var next = ContinuousClock.now
        await withDiscardingTaskGroup { group in
            while true {
                next += .nanoseconds(Int64(-log1p(-Double.random(in: 0..<1, using: &random)) / ratePerSecond * 1e9))
                guard next < deadline else { break }
                try? await Task.sleep(until: next, clock: .continuous)
                let phone = Int.random(in: 0..<phones, using: &random)
                guard inFlight.enter(limit: maxInFlight) else {
                    await log.request(started: Date(), seconds: 0, outcome: "shed", calls: 0)
                    continue
                }
                let request = self.request(of: phone)
                group.addTask {
                    defer { inFlight.leave() }
                    await Self.ask(base: base, session: session, request, log: log)
                }
            }
        }
    }

    /// Phone `phone` stands within about a kilometre of its query point, the same place at every call.
    func request(of phone: Int) -> RegionRefreshRequest {
        let point = points[phone % points.count]
        var place = SeededRandom(seed: UInt64(phone) &+ 0x9E37)
        let lat = min(89.9, max(-89.9, point.lat + Double.random(in: -0.01..<0.01, using: &place)))
        let lon = point.lon + Double.random(in: -0.01..<0.01, using: &place)
        return RegionRefreshRequest(
            lat: lat, lon: lon <= 180 && lon >= -180 ? lon : point.lon, userNetworks: point.network.isEmpty ? nil : [point.network])
    }

    /// One phone's call with the client's retries, timed from the first call to the answer or the last failure.
    static func ask(base: URL, session: URLSession, _ request: RegionRefreshRequest, log: PhoneLog) async {
        let calls = CallCount()
        let client = RefreshClient(
            baseURL: base, session: session,
            sleep: { seconds in
                calls.value.add(1, ordering: .relaxed)
                try await Task.sleep(for: .seconds(seconds))
            })
        let started = Date()
        let clock = ContinuousClock.now
        let outcome: String
        do {
            _ = try await client.refresh(request, now: started)
            outcome = "ok"
        } catch let error as RefreshClientError {
            outcome = Self.name(error)
        } catch {
            outcome = "error"
        }
        let took = clock.duration(to: .now)
        await log.request(
            started: started, seconds: Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18, outcome: outcome,
            calls: calls.value.load(ordering: .relaxed))
    }

    static func name(_ error: RefreshClientError) -> String {
        switch error {
        case .refused(let code, _, _): "refused_\(code)"
        case .unauthorized(let status): "http_\(status)"
        case .rateLimited: "http_429"
        case .server(let status, let code, _): "http_\(status)" + (code.map { "_\($0)" } ?? "")
        case .transport: "transport"
        case .undecodable: "undecodable"
        }
    }
}

/// Requests in flight, bounded.
final class InFlightCount: Sendable {
    private let count = Atomic<Int>(0)

    func enter(limit: Int) -> Bool {
        if count.add(1, ordering: .relaxed).newValue <= limit { return true }
        count.subtract(1, ordering: .relaxed)
        return false
    }

    func leave() { count.subtract(1, ordering: .relaxed) }
}

/// The calls one refresh made: one, and one more before each retry's wait.
final class CallCount: Sendable {
    let value = Atomic<Int>(1)
}
