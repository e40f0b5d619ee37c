import Foundation
import Geo
import LocationStore
import OnCueContract
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

/// What the file says about a place reaches the phone: a venue size makes a venue, the address is the full line.
@Suite("Venue sizes and addresses from the file")
struct VenueAndAddressTests {
    @Test("a location with a venue size is a venue whatever its network: a 3 km park is split into circles")
    func venueSizeMakesAVenue() throws {
        let park = Coordinate(uncheckedLatitude: 33.8121, longitude: -117.9190)
        let locations = [Location(networkId: "parks", externalId: "1", name: "Park", coordinate: park, venueRadiusMeters: 3_000)]
        let index = LocationIndex.build(locations: locations, networks: [Network(id: "parks", name: "Parks")])
        let response = try RegionRefreshEngine(index: index).refresh(RefreshParameters(center: park, explain: true), now: Date())
        #expect(response.regions.first?.explain?.radiusRule == "split-venue")
        #expect(response.regions.count == 7)
    }

    @Test("a region's address is the street line, city, region and postal code, as the product document shows it")
    func fullAddress() throws {
        let here = Coordinate(uncheckedLatitude: 37.77, longitude: -122.41)
        let locations = [
            Location(
                networkId: "costco", externalId: "1", name: "Costco", address: "450 10th St", city: "San Francisco", region: "CA",
                postalCode: "94103", coordinate: here),
            Location(
                networkId: "costco", externalId: "2", name: "Costco", address: nil, city: "Oakland",
                coordinate: Sphere.destination(from: here, meters: 5_000, bearing: 90)),
        ]
        let index = LocationIndex.build(locations: locations, networks: [Network(id: "costco", name: "Costco")])
        let response = try RegionRefreshEngine(index: index).refresh(RefreshParameters(center: here), now: Date())
        #expect(response.regions.map(\.address) == ["450 10th St, San Francisco, CA 94103", "Oakland"])
        #expect(IndexRecord.postalAddress(street: nil, city: nil, region: nil, postalCode: nil) == nil)
        #expect(IndexRecord.postalAddress(street: "1 Main St", city: "", region: "CA", postalCode: nil) == "1 Main St, CA")
    }
}
