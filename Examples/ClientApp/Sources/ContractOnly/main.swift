import OnCueContract

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What an app does with the contract alone: build a request, check it as the server will, and read an answer.
let request = RegionRefreshRequest(lat: 60.1699, lon: 24.9384, accuracy: 25, userNetworks: ["K-Market", "alepa"], maxRegions: 20)
do {
    let parameters = try request.validated()
    print("request valid: \(parameters.cardNetworks.count) card networks, \(parameters.maxRegions) regions at most")
} catch {
    print("request refused: \(error)")
}
let answer = #"{"regions":[{"id":"loc_alepa_1","network_id":"alepa","lat":60.17,"lon":24.94,"radius_meters":120,"priority":1,"name":"Alepa Kamppi","address":null,"kind":"location"}],"refresh_after_meters":850,"cache_ttl_seconds":3600,"server_time":"2026-11-27T10:30:00Z","coverage_guaranteed":true}"#
let response = try JSONDecoder().decode(RegionRefreshResponse.self, from: Data(answer.utf8))
print("monitor \(response.regions.map(\.id)); ask again after \(Int(response.refreshAfterMeters)) m")
