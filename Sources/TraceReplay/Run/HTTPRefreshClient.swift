import Foundation
import OnCueContract
import RegionRefresh
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `RegionRefreshing` over HTTP: posts the request as JSON to `<base>/v1/region-refresh` of a running `oncue serve`.
package struct HTTPRefreshClient: RegionRefreshing {
    package let endpoint: URL
    package let timeoutSeconds: Double
    /// Calls the server did not answer with regions (any status but 200, a transport failure, an undecodable body):
    /// failures no scenario injected, which make a replay measure the server's state rather than the strategies.
    package let failures = FailureTally()

    /// How many calls failed, and the first failure's message.
    package final class FailureTally: Sendable {
        private let state = Mutex<(count: Int, first: String?)>((0, nil))

        public var count: Int { state.withLock { $0.count } }
        public var first: String? { state.withLock { $0.first } }

        func record(_ message: String) {
            state.withLock {
                $0.count += 1
                if $0.first == nil { $0.first = message }
            }
        }
    }

    package init(baseURL: URL, timeoutSeconds: Double = 10) {
        endpoint = baseURL.appendingPathComponent("v1").appendingPathComponent("region-refresh")
        self.timeoutSeconds = timeoutSeconds
    }

    /// Failures that are not a 400 from the server (transport, 5xx, undecodable body).
    package struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse {
        do {
            return try await call(request)
        } catch {
            failures.record(String(describing: error))
            throw error
        }
    }

    private func call(_ request: RegionRefreshRequest) async throws -> RegionRefreshResponse {
        var http = URLRequest(url: endpoint, timeoutInterval: timeoutSeconds)
        http.httpMethod = "POST"
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.httpBody = try JSONEncoder().encode(request)
        let data: Data
        let response: URLResponse
        do { (data, response) = try await URLSession.shared.data(for: http) } catch {
            throw Failure(description: "no answer from \(endpoint.absoluteString): \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            let body = String(decoding: data.prefix(300), as: UTF8.self)
            throw Failure(description: "HTTP \(status) from \(endpoint.absoluteString): \(body)")
        }
        do { return try JSONDecoder().decode(RegionRefreshResponse.self, from: data) } catch {
            throw Failure(description: "undecodable response from \(endpoint.absoluteString): \(error)")
        }
    }
}
