import Testing

@testable import Geo

@Suite struct CoordinateTests {
    @Test(arguments: [
        (Double.nan, 0.0), (0.0, .nan), (.infinity, 0), (0, -.infinity), (90.000001, 0), (-90.5, 0), (0, 180.0001), (0, -181),
    ])
    func refusesInvalid(lat: Double, lon: Double) {
        #expect(throws: CoordinateError.self) { try Coordinate(latitude: lat, longitude: lon) }
    }

    @Test func acceptsEdges() throws {
        for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
            let c = try Coordinate(latitude: lat, longitude: lon)
            #expect(c.latitude == lat && c.longitude == lon)
        }
    }

    @Test func errorNamesTheProblem() {
        do {
            _ = try Coordinate(latitude: 95, longitude: 0)
            Issue.record("accepted")
        } catch { #expect(error.description.contains("latitude 95.0")) }
        do {
            _ = try Coordinate(latitude: 0, longitude: .nan)
            Issue.record("accepted")
        } catch { #expect(error.description.contains("longitude is not a finite number")) }
    }
}
