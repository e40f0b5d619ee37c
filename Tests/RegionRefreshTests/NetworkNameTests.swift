import Foundation
import Geo
import LocationStore
import Testing

@testable import RegionRefresh

/// A location without a name of its own (its file had no name column) is served with its network's name of the day:
/// a rename shows at the next index build, with no re-import and no new ids.
@Suite("Names of nameless locations")
struct NetworkNameTests {
    @Test("a nameless location is served with its network's current name; a named one keeps its own")
    func servedWithTheNetworksName() throws {
        let here = Coordinate(uncheckedLatitude: 37.77, longitude: -122.41)
        let locations = [
            Location(networkId: "costco", externalId: "h0000000000000001", name: "", coordinate: here),
            Location(
                networkId: "costco", externalId: "7", name: "Costco SF Gas", coordinate: Sphere.destination(from: here, meters: 900, bearing: 0)),
        ]
        for networkName in ["Costco", "Costco Wholesale"] {
            let index = LocationIndex.build(locations: locations, networks: [Network(id: "costco", name: networkName)])
            let response = try RegionRefreshEngine(index: index).refresh(RefreshParameters(center: here), now: Date())
            #expect(response.regions.map(\.name) == [networkName, "Costco SF Gas"])
        }
    }
}
