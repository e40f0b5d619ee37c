import Foundation
import OnCueClient
import OnCueContract
import Synchronization

/// `RegionRefreshing` over HTTP: posts the request as JSON to `<base>/v1/region-refresh` of a running `oncue serve`.
package struct HTTPRefreshClient: RegionRefreshing {
    package var endpoint: URL { client.endpoint }
    /// Calls the server did not answer with regions (any status but 200, a transport failure, an undecodable body):
    /// failures no scenario injected, which make a replay measure the server's state rather than the strategies.
    package let failures = FailureTally()

    /// How many calls failed, and the first failure's message.
    package final class FailureTally: Sendable {
        private let state = Mutex<(count: Int, first: String?)>((0, nil))

        package var count: Int { state.withLock { $0.count } }
        package var first: String? { state.withLock { $0.first } }

        func record(_ message: String) {
            state.withLock {
                $0.count += 1
                if $0.first == nil { $0.first = message }
            }
        }
    }

    /// The app's client (OnCueClient), so the replay's HTTP path is the one an app ships. It never retries on its own:
    /// the virtual phone retries on the scenario's clock, as its settings say.
    private let client: RefreshClient

    /// - Parameter accessToken: the app's access token for a server run with `--client-jwt`, asked before every call.
    package init(baseURL: URL, timeoutSeconds: Double = 10, accessToken: (@Sendable () async throws -> String?)? = nil) {
        client = RefreshClient(baseURL: baseURL, timeoutSeconds: timeoutSeconds, retry: .never, accessToken: accessToken)
    }

    package func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse {
        do {
            return try await client.refresh(request, now: now)
        } catch {
            failures.record("\(endpoint.absoluteString): \(error)")
            throw error
        }
    }
}
