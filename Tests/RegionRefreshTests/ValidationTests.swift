import Foundation
import OnCueContract
import Testing

@testable import RegionRefresh

/// Every bad field is refused with a typed error that names it.
@Suite struct ValidationTests {
    func error(_ json: String) -> RegionRefreshError? {
        do {
            _ = try RegionRefreshRequest.decode(json: Data(json.utf8)).validated()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"lat": 91, "lon": 0}"#, "lat"),
        (#"{"lat": -90.0001, "lon": 0}"#, "lat"),
        (#"{"lat": 0, "lon": 180.5}"#, "lon"),
        (#"{"lat": 0, "lon": 0, "radius_km": 0}"#, "radius_km"),
        (#"{"lat": 0, "lon": 0, "radius_km": 200.1}"#, "radius_km"),
        (#"{"lat": 0, "lon": 0, "radius_km": -5}"#, "radius_km"),
        (#"{"lat": 0, "lon": 0, "max_regions": 0}"#, "max_regions"),
        (#"{"lat": 0, "lon": 0, "max_regions": 101}"#, "max_regions"),
        (#"{"lat": 0, "lon": 0, "max_regions": 2.5}"#, "max_regions"),
        (#"{"lat": 0, "lon": 0, "accuracy": -1}"#, "accuracy"),
        (#"{"lat": 0, "lon": 0, "user_networks": ["ok", ""]}"#, "user_networks[1]"),
        (#"{"lat": 0, "lon": 0, "user_networks": "costco"}"#, "user_networks"),
        (#"{"lat": 0, "lon": 0, "network_visits": [1]}"#, "network_visits"),
        (#"{"lat": 0, "lon": 0, "user_networks": {"a": 1}}"#, "user_networks"),
        (#"{"lat": 0, "lon": 0, "user_networks": [1]}"#, "user_networks[0]"),
        (#"{"lat": 0, "lon": 0, "network_visits": {"a": -1}}"#, "network_visits"),
        (#"{"lat": 0, "lon": 0, "network_visits": {"a": "x"}}"#, "network_visits.a"),
        (#"{"lat": 0, "lon": 0, "network_visits": {"a": 1.5}}"#, "network_visits"),
        (#"{"lat": 0, "lon": 0, "local_time": "tomorrow"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:00"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-13-22T18:30:00Z"}"#, "local_time"),
        // RFC 3339 (the document's format: date-time) and nothing looser: seconds, a colon in the offset, a real
        // date, an offset within ±23:59, `T` between date and time.
        (#"{"lat": 0, "lon": 0, "local_time": ""}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30+01:00"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:00.123+0530"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:00+99:99"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:00+24:00"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-02-30T18:30:00Z"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-04-31T18:30:00Z"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22 18:30:00Z"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:60Z"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:00.Z"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": "2025-11-22T18:30:00Zjunk"}"#, "local_time"),
        (#"{"lat": 0, "lon": 0, "local_time": null}"#, ""),
        (#"{"lat": 0, "lon": 0, "network_visits": {"": 1}}"#, "network_visits"),
        (#"{"lat": 0, "lon": 0, "network_visits": {"a": 1000000001}}"#, "network_visits"),
        (#"{"lat": 0, "lon": 0, "include_other_networks": "yes"}"#, "include_other_networks"),
        (#"{"lat": 0, "lon": 0, "reserve_refresh_region": 1}"#, "reserve_refresh_region"),
        (#"{"lat": 0, "lon": 0, "min_radius_meters": 1000.5}"#, "min_radius_meters"),
        // Duplicate members: which one counts is undefined in JSON (Foundation took the first, browsers the last).
        (#"{"lat": 40.7, "lon": 0, "lat": 95}"#, "lat"),
        (#"{"lat": 0, "lon": 0, "l\u0061t": 1}"#, "lat"),
        (#"{"lat": 0, "lon": 0, "network_visits": {"a": 1, "a": 2}}"#, "network_visits.a"),
        (#"{"lat": 0, "lon": 0, "app_version": "1", "app_version": "2"}"#, "app_version"),
        (#"{"lat": 0, "lon": 0, "min_radius_meters": -1}"#, "min_radius_meters"),
        (#"{"lat": 0, "lon": 0, "min_radius_meters": "100"}"#, "min_radius_meters"),
        (#"{"lat": 0, "lon": 0, "explain": null}"#, ""),
        (#"{"lat": "0", "lon": 0}"#, "lat"),
        (#"{"lon": 0}"#, "lat"),
        (#"{"lat": 0}"#, "lon"),
        (#"{"lat": null, "lon": 0}"#, "lat"),
    ])
    func badField(json: String, field: String) {
        let e = error(json)
        if field.isEmpty {
            #expect(e == nil, "\(json) should be accepted (null optional field)")
            return
        }
        #expect(e?.field == field, "\(json) → \(String(describing: e))")
        #expect(e?.description.contains(field) == true)
        // Messages speak JSON, never Swift (`must be Array<Any>` was one).
        let message = e?.description ?? ""
        #expect(!["Array<", "Dictionary<", "Swift.", "Optional<"].contains { message.contains($0) }, "\(message)")
    }

    @Test(arguments: ["", "{", "[]", "null", "not json", "{\"lat\": 1e999, \"lon\": 0}"])
    func malformed(json: String) {
        let e = error(json)
        #expect(e != nil)
        if let e { #expect(e.code == "malformed_json" || e.field == "lat", "\(json) → \(e)") }
    }

    @Test func defaultsAndAcceptedForms() throws {
        let p = try RegionRefreshRequest.decode(
            json: Data(
                #"{"lat": 37.7749, "lon": -122.4194, "accuracy": 65.0, "radius_km": 50, "user_networks": ["costco", "whole-foods", "sfpl", "costco"], "max_regions": 20}"#
                    .utf8)
        ).validated()
        #expect(p.cardNetworks == ["costco", "whole-foods", "sfpl"])
        #expect(p.radiusMeters == 50_000 && p.maxRegions == 20 && p.includeOtherNetworks && !p.reserveRefreshRegion)
        let bare = try RegionRefreshRequest.decode(json: Data(#"{"lat": 0, "lon": 0}"#.utf8)).validated()
        #expect(bare.radiusMeters == 50_000 && bare.maxRegions == 20 && bare.cardNetworks.isEmpty)
        for t in [
            "2025-11-22T18:30:00-08:00", "2025-11-22T18:30:00Z", "2025-11-22T18:30:00.123+05:30", "2025-11-22t18:30:00z",
            "2024-02-29T18:59:59.999999999-23:59", "2025-11-22T18:00:00+14:00",
        ] {
            var request = RegionRefreshRequest(lat: 0, lon: 0)
            request.localTime = t
            let q = try request.validated()
            #expect(q.localHour == 18, "\(t)")
        }
    }

    @Test func responseUsesTheDocumentsKeys() throws {
        let response = RegionRefreshResponse(
            regions: [
                Region(
                    id: "loc_costco_sf_001", networkId: "costco", lat: 37.7849, lon: -122.4094,
                    radiusMeters: 100, priority: 1, name: "Costco Wholesale - San Francisco",
                    address: "450 10th St, San Francisco, CA")
            ],
            refreshAfterMeters: 500, cacheTtlSeconds: 21_600, serverTime: "2025-11-22T10:30:00Z", coverageGuaranteed: true)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(response)) as! [String: Any]
        #expect(Set(object.keys) == ["regions", "refresh_after_meters", "cache_ttl_seconds", "server_time", "coverage_guaranteed"])
        let region = (object["regions"] as! [[String: Any]])[0]
        #expect(Set(region.keys).isSuperset(of: ["id", "network_id", "lat", "lon", "radius_meters", "priority", "name", "address"]))
        #expect(ServerTime.string(Date(timeIntervalSince1970: 1_763_807_400)) == "2025-11-22T10:30:00Z")
        #expect(ServerTime.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }
}

/// February 29 is a date only in Gregorian leap years, as RFC 3339 (and the document's `date-time`) counts them.
@Suite struct LeapDayTests {
    @Test(arguments: [0, 4, 1900, 2000, 2023, 2024, 2100, 2400, 8600, 9996])
    func february29IsAcceptedExactlyInLeapYears(year: Int) throws {
        // Oracle: Foundation's Gregorian calendar, which knows leap years independently of the parser.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let probe = calendar.date(from: DateComponents(year: max(year, 1), month: 2, day: 29))!
        // Year 0000 is 1 BC, a leap year of the proleptic calendar; Foundation's year 1 is not, so 0 is stated.
        let isLeap = year == 0 || calendar.component(.month, from: probe) == 2
        let text = String(format: "%04d-02-29T18:30:00Z", year)
        var request = RegionRefreshRequest(lat: 0, lon: 0)
        request.localTime = text
        let accepted = (try? request.validated()) != nil
        #expect(accepted == isLeap, "\(text)")
    }
}
