import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How to talk to a Nominatim-compatible geocoder, within its usage policy.
package struct GeocoderSettings: Sendable {
    /// The service's base URL; `/search` is appended.
    package var baseURL: URL
    /// At most this many requests start per second (Nominatim's public policy: 1).
    package var requestsPerSecond: Double = 1
    /// Time allowed for one answer.
    package var timeoutSeconds: Double = 10
    /// Tries per address on 429, 5xx or a transport failure, the first included.
    package var attempts = 4
    /// The longest wait between tries; a `Retry-After` asking for more ends the tries for that address.
    package var maxBackoffSeconds: Double = 120
    /// After this many addresses in a row failed (each after all its tries), the service is taken as down and the
    /// rest are not asked, so an import against a dead service ends in seconds rather than hours.
    package var failuresBeforeGivingUp = 3
    /// Identifies the application, as the usage policy requires.
    package var userAgent = "OnCue-chain-import/1.0 (oncue import --geocoder; store-location geofencing)"

    package init(baseURL: URL) { self.baseURL = baseURL }

    /// `text` as a geocoder's base URL: an http(s) URL with a host, or nil. The one rule for the CLI's `--geocoder`, the
    /// server's setting and the admin API's `geocoder` parameter.
    package static func baseURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// The search endpoint for a structured query.
    func searchURL(_ query: AddressQuery) -> URL? {
        guard var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)
        else { return nil }
        components.queryItems =
            query.queryItems + [
                URLQueryItem(name: "format", value: "jsonv2"),
                URLQueryItem(name: "limit", value: "1"),
                URLQueryItem(name: "addressdetails", value: "1"),
            ]
        return components.url
    }

    /// The base URL with any user name and password taken out, for messages and the cache's `source`.
    package var displayURL: String {
        guard var c = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return "(geocoder)" }
        c.user = nil
        c.password = nil
        return c.string ?? "(geocoder)"
    }
}

/// What the service said about one address.
package enum GeocodeReply: Sendable, Equatable {
    case found(GeocodeAnswer)
    case notFound
    /// No usable answer after every try (or the service was already given up on): the reason says why.
    case failed(String)
}

/// A client of a Nominatim-compatible `/search`: paces requests to `requestsPerSecond`, retries 429 and 5xx
/// honouring `Retry-After`, and gives up on a service that keeps failing.
package actor NominatimClient {
    package let settings: GeocoderSettings
    private let session: URLSession
    private var nextStart = ContinuousClock.now
    private var failuresInARow = 0
    /// Requests sent, tries included.
    package private(set) var requestsSent = 0

    package init(settings: GeocoderSettings) {
        self.settings = settings
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = settings.timeoutSeconds
        configuration.timeoutIntervalForResource = settings.timeoutSeconds
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    /// Whether the service has failed `failuresBeforeGivingUp` addresses in a row.
    package var gaveUp: Bool { failuresInARow >= settings.failuresBeforeGivingUp }

    package func search(_ query: AddressQuery) async -> GeocodeReply {
        if gaveUp {
            return .failed("not asked: \(settings.displayURL) failed \(failuresInARow) addresses in a row")
        }
        guard let url = settings.searchURL(query) else { return .failed("cannot form a search URL from \(settings.displayURL)") }
        var lastProblem = ""
        for attempt in 1...max(1, settings.attempts) {
            await waitForSlot()
            requestsSent += 1
            var request = URLRequest(url: url, timeoutInterval: settings.timeoutSeconds)
            request.setValue(settings.userAgent, forHTTPHeaderField: "User-Agent")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let wait: Double
            do {
                let (body, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                switch status {
                case 200:
                    do {
                        let answer = try GeocodeAnswer.first(in: body)
                        failuresInARow = 0
                        return answer.map { .found($0) } ?? .notFound
                    } catch {
                        return fail("\(error)")
                    }
                case 429, 500, 502, 503, 504:
                    lastProblem = "HTTP \(status)"
                    let asked = RetryAfter.seconds((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After"))
                    if let asked, asked > settings.maxBackoffSeconds {
                        return fail("HTTP \(status) asking to retry after \(Int(asked)) s (more than \(Int(settings.maxBackoffSeconds)) s)")
                    }
                    wait = asked ?? backoff(attempt)
                default:
                    return fail("HTTP \(status)")
                }
            } catch {
                lastProblem = Self.describe(error)
                wait = backoff(attempt)
            }
            if attempt < settings.attempts { delayNextStart(by: wait) }
        }
        return fail("\(lastProblem) after \(settings.attempts) tries")
    }

    private func fail(_ reason: String) -> GeocodeReply {
        failuresInARow += 1
        return .failed(reason)
    }

    /// 1, 2, 4, … seconds, capped.
    private func backoff(_ attempt: Int) -> Double {
        min(settings.maxBackoffSeconds, pow(2, Double(attempt - 1)))
    }

    /// Claims the next start time before suspending, so concurrent callers queue up rather than start together.
    private func waitForSlot() async {
        let interval = Duration.seconds(1 / max(settings.requestsPerSecond, 0.001))
        let now = ContinuousClock.now
        let slot = max(now, nextStart)
        nextStart = slot + interval
        if slot > now { try? await Task.sleep(until: slot, clock: .continuous) }
    }

    private func delayNextStart(by seconds: Double) {
        nextStart = max(nextStart, ContinuousClock.now + .milliseconds(Int64(seconds * 1000)))
    }

    private static func describe(_ error: any Error) -> String {
        if let url = error as? URLError {
            switch url.code {
            case .timedOut: return "no answer within the timeout"
            case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet:
                return "cannot reach the service (\(url.code.rawValue))"
            default: return "transport error \(url.code.rawValue)"
            }
        }
        return "\(error)"
    }
}
