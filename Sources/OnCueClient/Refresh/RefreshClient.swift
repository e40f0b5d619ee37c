import Foundation
import OnCueContract

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /v1/region-refresh` over HTTP, as an app calls it: the request as JSON, the app backend's session token as
/// `Authorization: Bearer` when a provider gives one, a timeout per call, retries by `RetryPolicy` (the server's
/// `Retry-After` first), and every failure a `RefreshClientError`.
public struct RefreshClient: RegionRefreshing {
    public let endpoint: URL
    public var timeoutSeconds: Double
    public var retry: RetryPolicy
    /// The current access token (nil: send none); asked before every call, so a provider may renew it.
    public var accessToken: (@Sendable () async throws -> String?)?
    private let session: URLSession
    private let sleep: @Sendable (Double) async throws -> Void

    /// - Parameters:
    ///   - baseURL: the server (`https://refresh.example.com`); `/v1/region-refresh` is appended.
    ///   - sleep: waits between tries (tests pass their own).
    public init(
        baseURL: URL, timeoutSeconds: Double = 10, retry: RetryPolicy = RetryPolicy(),
        accessToken: (@Sendable () async throws -> String?)? = nil, session: URLSession = .shared,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        endpoint = baseURL.appendingPathComponent("v1").appendingPathComponent("region-refresh")
        self.timeoutSeconds = timeoutSeconds
        self.retry = retry
        self.accessToken = accessToken
        self.session = session
        self.sleep = sleep
    }

    /// The regions for `request`, asking again by the retry policy; the last failure when every try failed.
    public func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse {
        let body = try JSONEncoder().encode(request)
        var attempt = 1
        while true {
            do {
                return try await call(body)
            } catch let error as RefreshClientError {
                guard let wait = retry.delay(after: error, attempt: attempt) else { throw error }
                try await sleep(wait)
                attempt += 1
            }
        }
    }

    private func call(_ body: Data) async throws -> RegionRefreshResponse {
        var http = URLRequest(url: endpoint, timeoutInterval: timeoutSeconds)
        http.httpMethod = "POST"
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token = try await accessToken?() { http.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        http.httpBody = body
        let data: Data
        let response: URLResponse
        do { (data, response) = try await session.data(for: http) } catch {
            throw RefreshClientError.transport("\(endpoint.absoluteString): \(error.localizedDescription)")
        }
        let answer = response as? HTTPURLResponse
        let status = answer?.statusCode ?? 0
        guard status == 200 else { throw Self.failure(status: status, body: data, retryAfter: answer?.value(forHTTPHeaderField: "Retry-After")) }
        do { return try JSONDecoder().decode(RegionRefreshResponse.self, from: data) } catch {
            throw RefreshClientError.undecodable(String(describing: error))
        }
    }

    /// A non-200 answer as a typed failure, from its status, its `{"error", "message", "field"}` body and `Retry-After`.
    static func failure(status: Int, body: Data, retryAfter: String?) -> RefreshClientError {
        let error = try? JSONDecoder().decode(ErrorBody.self, from: body)
        let seconds = retryAfter.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        switch status {
        case 400: return .refused(code: error?.error ?? "bad_request", message: error?.message ?? "", field: error?.field)
        case 401, 403: return .unauthorized(status: status)
        case 429: return .rateLimited(retryAfterSeconds: seconds)
        default: return .server(status: status, code: error?.error, retryAfterSeconds: seconds)
        }
    }

    /// The body of every refusal the server sends.
    struct ErrorBody: Decodable {
        var error: String
        var message: String?
        var field: String?
    }
}
