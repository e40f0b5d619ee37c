import Foundation
import OnCueClient
import OnCueContract

// What an app does: hand the client's state machine what the platform reports and carry out what it returns — here
// the platform is this process, so the actions are printed. With a server URL as argument the refresh goes to it
// (with the session token from SESSION_TOKEN), and the regions it answers are what the machine asks to monitor.
let wallet = Wallet(cards: [Wallet.Card(networkId: "k-market", name: "K-Market")])
var machine = ClientStateMachine(
    settings: try ClientSettings(strategy: ClientStrategy.parse("guaranteed+clamp+gps+motion")).validated(for: .iOS), platform: .iOS,
    wallet: wallet)
let launch = machine.handle(.woke(.launch, fix: LocationFix(time: 0, latitude: 60.1699, longitude: 24.9384, accuracy: 25)), at: 0)
guard case .refresh(let call)? = launch.first else {
    print("a launched client asks for its regions first")
    exit(1)
}
guard let server = CommandLine.arguments.dropFirst().first.flatMap(URL.init(string:)) else {
    print(String(decoding: try JSONEncoder().encode(call.request), as: UTF8.self))
    exit(0)
}
let client = RefreshClient(baseURL: server, retry: RetryPolicy(attempts: 3), accessToken: { ProcessInfo.processInfo.environment["SESSION_TOKEN"] })
let event: ClientEvent
do {
    event = .refreshSucceeded(try await client.refresh(call.request, now: Date()))
} catch let error as RefreshClientError {
    print("no regions: \(error)")
    event = .refreshFailed(retryAfterSeconds: error.retryAfterSeconds)
}
for action in machine.handle(event, at: 1) {
    switch action {
    case .startMonitoring(let watch): print("monitor \(watch.identifier) (\(watch.role.rawValue), \(Int(watch.region.radiusMeters)) m)")
    case .requestState(let id): print("ask the OS whether the phone is in \(id)")
    default: print(action)
    }
}
