import Foundation
import Geo
import LocationStore
import OnCueContract
import TestSupport
import Testing

@testable import RegionRefresh

/// The fast request reader against the reference, Foundation's JSONDecoder: on every body, hand-made
/// or generated, `decode(jsonBytes:)` must give the same request or the same error.
@Suite("Request parsing: fast reader vs JSONDecoder", .cpuHeavy)
struct RequestParsingTests {
    static func outcome(_ body: String) -> Result<RegionRefreshRequest, RegionRefreshError> {
        Array(body.utf8).withUnsafeBytes { bytes in Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decode(jsonBytes: bytes) } }
    }

    static func reference(_ body: String) -> Result<RegionRefreshRequest, RegionRefreshError> {
        Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decodeWithFoundation(Data(body.utf8)) }
    }

    static func fastTakes(_ body: String) -> Bool {
        Array(body.utf8).withUnsafeBytes { RequestFastParser.parse($0) != nil }
    }

    static let typical = [
        #"{"lat": 30.2672, "lon": -97.7431}"#,
        #"{"lat":30.2672,"lon":-97.7431,"accuracy":12.5,"radius_km":50,"user_networks":["costco","target"],"max_regions":20}"#,
        #"{ "max_regions" : 20.0 , "lon" : -0 , "lat" : 1E2 , "explain" : true }"#,
        "{\n\t\"lat\": -33.8688,\r\n\"lon\": 151.2093, \"user_networks\": [], \"network_visits\": {\"costco\": 3, \"café\": 1}}",
        #"{"lat": 40, "lon": -74, "local_time": "2025-11-22T18:30:00-05:00", "include_other_networks": false, "reserve_refresh_region": true}"#,
        #"{"lat": 40, "lon": -74, "min_radius_meters": 100, "accuracy": 65}"#,
        #"{"lat": 40, "lon": -74, "min_radius_meters": null}"#,
        #"{"lat": 40, "lon": -74, "accuracy": null, "radius_km": null, "user_networks": null, "max_regions": null, "explain": null}"#,
        #"{"lat": 40, "lon": -74, "app_version": "3.1", "debug": false, "build": 1234, "extra": null}"#,
        #"{"lat": 40.7128, "lon": -74.006, "user_networks": ["東京", "zürich-markt", "a b"]}"#,
        #"{"lat": 1.5e-3, "lon": -2.25E+1, "network_visits": {}}"#,
    ]

    static let unusual = [
        "", " ", "{", "}", "[]", "null", "42", #""lat""#, "{}", #"{"lat": 1}"#, #"{"lon": 1}"#,
        #"{"lat": 1, "lon": 2,}"#, #"{"lat": 1 "lon": 2}"#, #"{"lat": 1, "lon": 2} x"#, #"{"lat": 1, "lon": 2}}"#,
        #"{"lat": 01, "lon": 2}"#, #"{"lat": 1., "lon": 2}"#, #"{"lat": .5, "lon": 2}"#, #"{"lat": -, "lon": 2}"#,
        #"{"lat": 1e, "lon": 2}"#, #"{"lat": 1e400, "lon": 2}"#, #"{"lat": +1, "lon": 2}"#, #"{"lat": NaN, "lon": 2}"#,
        #"{"lat": "1", "lon": 2}"#, #"{"lat": null, "lon": 2}"#, #"{"lat": true, "lon": 2}"#, #"{"lat": [1], "lon": 2}"#,
        #"{"lat": 1, "lat": 3, "lon": 2}"#, #"{"lat": 1, "lon": 2, "max_regions": 2.5}"#, #"{"lat": 1, "lon": 2, "max_regions": "20"}"#,
        #"{"lat": 1, "lon": 2, "max_regions": 1e15}"#, #"{"lat": 1, "lon": 2, "max_regions": -3}"#,
        #"{"lat": 1, "lon": 2, "user_networks": "costco"}"#, #"{"lat": 1, "lon": 2, "user_networks": [1]}"#,
        #"{"lat": 1, "lon": 2, "user_networks": ["a", null]}"#, #"{"lat": 1, "lon": 2, "user_networks": ["a",]}"#,
        #"{"lat": 1, "lon": 2, "user_networks": ["a\"b", "c\\d", "\u00e9"]}"#, #"{"lat": 1, "lon": 2, "local_time": "\ud83d\ude00"}"#,
        #"{"lat": 1, "lon": 2, "network_visits": {"a": 1.5}}"#, #"{"lat": 1, "lon": 2, "network_visits": {"a": 1, "a": 2}}"#,
        #"{"lat": 1, "lon": 2, "network_visits": []}"#, #"{"lat": 1, "lon": 2, "explain": "yes"}"#, #"{"lat": 1, "lon": 2, "explain": 1}"#,
        #"{"lat": 1, "lon": 2, "nested": {"a": [1, {"b": null}]}}"#, #"{"lat": 1, "lon": 2, "list": [1, 2]}"#,
        #"{"l\u0061t": 1, "lon": 2}"#, "\u{FEFF}{\"lat\": 1, \"lon\": 2}", "{\"lat\": 1, \"lon\": 2, \"local_time\": \"a\tb\"}",
        #"{"lat": 1, "lon": 2, "explain": tru}"#, #"{"lat": 1, "lon": 2, "explain": nul}"#, #"{"LAT": 1, "lon": 2}"#,
        #"{"lat": 123456789012345678901234567890, "lon": 2}"#, #"{"lat": 0.1000000000000000055511151231257827, "lon": 2}"#,
    ]

    @Test func typicalBodiesTakeTheFastPathAndMatchTheReference() throws {
        for body in Self.typical {
            #expect(Self.fastTakes(body), "fast path declined: \(body)")
            #expect(Self.outcome(body) == Self.reference(body), "\(body)")
        }
    }

    @Test func unusualBodiesGiveTheReferenceAnswer() {
        var declined = 0
        for body in Self.unusual {
            #expect(Self.outcome(body) == Self.reference(body), "\(body)")
            if !Self.fastTakes(body) { declined += 1 }
        }
        #expect(declined > Self.unusual.count / 2)  // most of these must be left to JSONDecoder
    }

    /// Seeded mutations of valid bodies (bytes dropped, duplicated, replaced): 50,000 cases, same answers.
    @Test func mutatedBodiesGiveTheReferenceAnswer() {
        var rng = SeededRandom(seed: 20_251_122)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 tfnul\"#.utf8)
        var fastTaken = 0
        for n in 0..<TestScale.cases(15_000) {
            var bytes = Array(Self.typical[n % Self.typical.count].utf8)
            for _ in 0..<(1 + Int(rng.next() % 3)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(bytes[at], at: at)
                default: bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            let body = String(decoding: bytes, as: UTF8.self)
            let fast = Self.outcome(body)
            let slow = Self.reference(body)
            if fast != slow {
                Issue.record("differs on \(body): \(fast) vs \(slow)")
                return
            }
            if Self.fastTakes(body) { fastTaken += 1 }
        }
        #expect(fastTaken > 1_000)  // the mutations that stay valid exercise the fast path too
    }
}
