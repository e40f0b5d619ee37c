import Foundation
import OnCueClient
import OnCueContract

// What an app does: ask a server for the regions to monitor, with its session token, retrying as the policy says.
// Without a server (no argument) it only shows the request it would send.
let request = RegionRefreshRequest(lat: 60.1699, lon: 24.9384, accuracy: 25, userNetworks: ["K-Market"], maxRegions: 20)
guard let server = CommandLine.arguments.dropFirst().first.flatMap(URL.init(string:)) else {
    print(String(decoding: try JSONEncoder().encode(request), as: UTF8.self))
    exit(0)
}
let client = RefreshClient(baseURL: server, retry: RetryPolicy(attempts: 3), accessToken: { ProcessInfo.processInfo.environment["SESSION_TOKEN"] })
do {
    let answer = try await client.refresh(request, now: Date())
    print("monitor \(answer.regions.count) regions; ask again after \(Int(answer.refreshAfterMeters)) m")
} catch let error as RefreshClientError {
    print("no regions: \(error)")
    exit(1)
}
