import Foundation
import RegionRefresh

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `RegionRefreshing` over HTTP: posts the request as JSON to `<base>/v1/region-refresh` of a running `oncue serve`.
public struct HTTPRefreshClient: RegionRefreshing {
    public let endpoint: URL
    public let timeoutSeconds: Double

    public init(baseURL: URL, timeoutSeconds: Double = 10) {
        endpoint = baseURL.appendingPathComponent("v1").appendingPathComponent("region-refresh")
        self.timeoutSeconds = timeoutSeconds
    }

    /// Failures that are not a 400 from the server (transport, 5xx, undecodable body).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse {
        var http = URLRequest(url: endpoint, timeoutInterval: timeoutSeconds)
        http.httpMethod = "POST"
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.httpBody = try JSONEncoder().encode(request)
        let (data, response) = try await URLSession.shared.data(for: http)
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
