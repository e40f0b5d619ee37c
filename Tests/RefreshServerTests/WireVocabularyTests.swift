import Foundation
import HTTPTypes
import OnCueContract
import Testing

@testable import RefreshServer

/// A member a client wrote another way is never silently dropped: a near miss of a field is refused naming the field
/// it meant (a phone that sent `userNetworks` was answered as if it held no card), and any other unknown member is let
/// through for newer clients and named in the answer.
@Suite("the wire's vocabulary: near misses refused, unknown members named")
struct WireVocabularyTests {
    static func body(_ extra: String) -> String { #"{"lat": 37.7700, "lon": -122.4130, \#(extra)}"# }

    @Test(
        "a field written another way is refused with 400 naming the field it meant",
        arguments: [
            (#""userNetworks": ["costco"]"#, "userNetworks", "user_networks"), (#""user-networks": ["costco"]"#, "user-networks", "user_networks"),
            (#""UserNetworks": ["costco"]"#, "UserNetworks", "user_networks"), (#""user_network": ["costco"]"#, "user_network", "user_networks"),
            (#""radiusKm": 10"#, "radiusKm", "radius_km"), (#""maxRegions": 5"#, "maxRegions", "max_regions"),
            (#""minRadiusMeters": 100"#, "minRadiusMeters", "min_radius_meters"), (#""LAT": 1"#, "LAT", "lat"),
        ])
    func nearMissesAreRefused(member: String, field: String, meant: String) async throws {
        try await withServer { client, _ in
            let reply = try await client.send(.post, "/v1/region-refresh", body: Self.body(member))
            #expect(reply.status == 400 && reply.json?["field"]?.string == field, "\(reply.text)")
            #expect(reply.json?["message"]?.string?.contains("did you mean '\(meant)'") == true, "\(reply.text)")
        }
    }

    @Test("other unknown members are let through and named in ignored_fields, by either reader")
    func unknownMembersAreNamed() async throws {
        try await withServer { client, _ in
            // A scalar member: the fast reader's path; an object: the reference decoding's.
            for (extra, expected) in [
                (#""user_networks": ["costco"], "app_version": "1.2""#, ["app_version"]),
                (#""user_networks": ["costco"], "device": {"os": "ios"}, "app_version": "1.2""#, ["app_version", "device"]),
            ] {
                let reply = try await client.send(.post, "/v1/region-refresh", body: Self.body(extra))
                #expect(reply.status == 200, "\(reply.text)")
                #expect(reply.json?["ignored_fields"]?.array?.compactMap(\.string) == expected, "\(reply.text)")
                #expect(reply.json?["regions"]?.array?.first?["network_id"]?.string == "costco")
            }
            // A body with only known members has none.
            let plain = try await client.send(.post, "/v1/region-refresh", body: Self.body(#""user_networks": ["costco"]"#))
            #expect(plain.status == 200 && plain.json?["ignored_fields"] == nil, "\(plain.text)")
        }
    }

    @Test func nearMissRules() {
        let known = RegionRefreshRequest.fieldNames
        #expect(FieldNames.nearMiss("user_networks", among: known) == nil)
        #expect(FieldNames.nearMiss("app_version", among: known) == nil)
        #expect(FieldNames.nearMiss("lan", among: known) == nil, "a short name needs its letters, not an edit")
        #expect(FieldNames.nearMiss("explian", among: known) == "explain")
        #expect(FieldNames.nearMiss("local-time", among: known) == "local_time")
        #expect(FieldNames.nearMiss("reserveRefreshRegions", among: known) == "reserve_refresh_region")
    }
}
