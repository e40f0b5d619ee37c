import Foundation
import OnCueContract
import RegionRefresh
import Testing

@testable import RefreshServer

/// The contract's types (OnCueContract, what an app links) against `openapi.yaml`: every property the document
/// describes is a field of the type, and every field is in the document, with values that conform to its schema.
@Suite struct ContractTypesTests {
    static let contract = OpenAPIContract.shared

    static func properties(_ schema: String) -> Set<String> {
        Set(contract.resolve("#/components/schemas/\(schema)")?["properties"]?.keys ?? [])
    }

    /// Every optional field set, so that the encoded JSON names every key the type has.
    static let fullRequest = {
        var request = RegionRefreshRequest(lat: 60.17, lon: 24.94, accuracy: 25, radiusKm: 10, userNetworks: ["alepa"], maxRegions: 20)
        request.networkVisits = ["alepa": 3]
        request.localTime = "2026-11-27T10:30:00+02:00"
        request.includeOtherNetworks = true
        request.reserveRefreshRegion = true
        request.explain = true
        request.minRadiusMeters = 100
        return request
    }()

    static let fullResponse: RegionRefreshResponse = {
        var response = fullResponseWithoutIgnored
        response.ignoredFields = ["app_version"]
        return response
    }()

    static let fullResponseWithoutIgnored = RegionRefreshResponse(
        regions: [
            Region(
                id: "loc_alepa_1", networkId: "alepa", lat: 60.17, lon: 24.94, radiusMeters: 120, priority: 1, name: "Alepa",
                address: "Mannerheimintie 1", kind: .location, mergedLocationIds: ["loc_alepa_2"], mergedCount: 1,
                explain: Region.Explanation(
                    tier: 1, distanceMeters: 300, boundaryDistanceMeters: 180, radiusBeforeFloorMeters: 80, radiusAfterFloorMeters: 120,
                    visitBoost: 1.5, timeOfDayBoost: 1, score: 120, radiusRule: "dense", localDensity: 12, placeDensity: 3_000,
                    openingHours: "Mo-Su 07:00-23:00", closedSoon: false))
        ],
        refreshAfterMeters: 850, cacheTtlSeconds: 3600, serverTime: "2026-11-27T08:30:00Z", coverageGuaranteed: false,
        coverageReason: .unmonitoredNearby, selectionLimited: true, unknownNetworks: ["nope"], resolvedNetworks: ["Alepa": "alepa"])

    static func keys(_ value: some Encodable) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any]
        return Set(object?.keys.map { $0 } ?? [])
    }

    @Test("the request type and the document name the same fields")
    func requestFields() throws {
        #expect(try Self.keys(Self.fullRequest) == Self.properties("RegionRefreshRequest"))
    }

    @Test("the response, a region and an explanation name the document's fields, with values its schemas accept")
    func responseFields() throws {
        #expect(try Self.keys(Self.fullResponse) == Self.properties("RegionRefreshResponse"))
        #expect(try Self.keys(Self.fullResponse.regions[0]) == Self.properties("Region"))
        let explanation = try #require(Self.fullResponse.regions[0].explain)
        let explanationSchema = Self.contract.resolve("#/components/schemas/Region")?["properties"]?["explain"]
        let explanationRef = explanationSchema?["$ref"]?.string
        let explanationProperties =
            explanationRef.flatMap { Self.contract.resolve($0) }?["properties"]?.keys ?? explanationSchema?["properties"]?.keys ?? []
        #expect(try Self.keys(explanation) == Set(explanationProperties))
        // The Codable form and the server's fast writer both conform.
        for body in [try JSONEncoder().encode(Self.fullResponse), Data(Self.fullResponse.wireJSON())] {
            let problems = Self.contract.check(
                method: "POST", path: "/v1/region-refresh", status: 200, contentType: "application/json", body: body)
            #expect(problems.isEmpty, "\(problems)")
        }
    }
}
