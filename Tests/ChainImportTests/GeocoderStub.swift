import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A loopback stand-in for a Nominatim `/search`, whose answer depends on the `street` asked for:
/// `found …` a house-level place in Finland, `area …` a city-level one, `abroad …` a place in Sweden, `none …` an empty
/// list, `garbage …` an HTML page, `busy …` 503 with `Retry-After: 1` on the first request for that street and a
/// place after, `throttled …` 429 with `Retry-After: 1` always, `forever …` 503 asking for an hour, `slow …` a place
/// after 3 s, `at LAT LON …` a house-level place at that point in the United States. It records each request's
/// street, arrival time and User-Agent. `hold(afterStreets:)` keeps requests for later streets waiting until `release()`.
actor GeocoderStub {
    struct Hit: Sendable {
        var street: String
        var at: ContinuousClock.Instant
        var userAgent: String
        var query: [String: String]
    }
    private(set) var hits: [Hit] = []
    private var seen: [String: Int] = [:]
    /// The streets asked, each once, in the order first asked.
    private(set) var streets: [String] = []
    private var holdAfter: Int?

    /// Requests for any street but the first `count` asked get no answer until `release()`, so a test knows which
    /// answers were sent (a client that asks one street again, after a timeout or a dropped connection, still gets its
    /// answer).
    func hold(afterStreets count: Int) { holdAfter = count }
    func release() { holdAfter = nil }

    fileprivate func isHeld(_ street: String) -> Bool {
        guard let holdAfter else { return false }
        return !streets.prefix(holdAfter).contains(street)
    }

    /// Records `hit`; returns how many times its street has been asked.
    func record(_ hit: Hit) -> Int {
        hits.append(hit)
        if seen[hit.street] == nil { streets.append(hit.street) }
        seen[hit.street, default: 0] += 1
        return seen[hit.street]!
    }

    func hits(street: String) -> [Hit] { hits.filter { $0.street == street } }

    static func place(rank: Int, country: String, lat: Double = 60.1689, lon: Double = 24.9416, box: Double? = nil) -> String {
        // Nominatim's boundingbox: [min lat, max lat, min lon, max lon] as strings, `box` degrees each way.
        let bbox = box.map { #","boundingbox":["\#(lat - $0)","\#(lat + $0)","\#(lon - $0)","\#(lon + $0)"]"# } ?? ""
        return """
            [{"place_id":1,"lat":"\(lat)","lon":"\(lon)","place_rank":\(rank),"importance":0.2\(bbox),
              "display_name":"Stub place","address":{"country_code":"\(country)"}}]
            """
    }

    /// Runs `body` with the stub's base URL while a real HTTP server answers on loopback.
    @discardableResult
    static func with<T: Sendable>(_ body: @escaping @Sendable (GeocoderStub, URL) async throws -> T) async throws -> T {
        let stub = GeocoderStub()
        let router = Router()
        router.get("search") { request, _ -> Response in
            var query: [String: String] = [:]
            for (k, v) in request.uri.queryParameters { query[String(k)] = String(v) }
            let street = query["street"] ?? ""
            let count = await stub.record(
                Hit(
                    street: street, at: .now, userAgent: request.headers[.userAgent] ?? "",
                    query: query))
            while await stub.isHeld(street) { try await Task.sleep(for: .milliseconds(10)) }
            func json(_ text: String, _ status: HTTPResponse.Status = .ok, retryAfter: String? = nil) -> Response {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let retryAfter { headers[.retryAfter] = retryAfter }
                return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
            }
            switch street.split(separator: " ").first.map(String.init) ?? "" {
            case "found": return json(place(rank: 30, country: "fi"))
            case "at":
                let parts = street.split(separator: " ")
                guard parts.count >= 3, let lat = Double(parts[1]), let lon = Double(parts[2]) else { return json("[]") }
                return json(place(rank: 30, country: "us", lat: lat, lon: lon))
            case "area": return json(place(rank: 16, country: "fi"))
            // A street: its point is the street's, anywhere within a box 0.004° each way (≈ 0.5 km half-diagonal).
            case "street": return json(place(rank: 26, country: "us", lat: 40.75, lon: -73.99, box: 0.004))
            case "abroad": return json(place(rank: 30, country: "se", lat: 59.33, lon: 18.06))
            case "none": return json("[]")
            case "garbage":
                return Response(
                    status: .ok, headers: [.contentType: "text/html"],
                    body: .init(byteBuffer: ByteBuffer(string: "<html>busy</html>")))
            case "busy": return count == 1 ? json("{}", .serviceUnavailable, retryAfter: "1") : json(place(rank: 30, country: "fi"))
            case "throttled": return json("{}", .tooManyRequests, retryAfter: "1")
            case "forever": return json("{}", .serviceUnavailable, retryAfter: "3600")
            case "slow":
                try await Task.sleep(for: .seconds(3))
                return json(place(rank: 30, country: "fi"))
            default: return json("{}", .badRequest)
            }
        }
        let app = Application(router: router)
        return try await app.test(.live) { client in
            let port = try #require(client.port)
            return try await body(stub, URL(string: "http://127.0.0.1:\(port)")!)
        }
    }
}
