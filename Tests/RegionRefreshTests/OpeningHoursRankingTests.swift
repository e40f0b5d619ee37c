import Foundation
import Geo
import LocationStore
import Testing

@testable import OnCueContract
@testable import RegionRefresh

/// A store closed for the next half hour at the phone's local time ranks after the open ones of its tier, never dropped.
@Suite("Opening hours in the ranking") struct OpeningHoursRankingTests {
    let origin = Coordinate(uncheckedLatitude: 60.17, longitude: 24.94)

    func at(_ meters: Double) -> Coordinate { Sphere.destination(from: origin, meters: meters, bearing: 45) }

    /// A card network with an office-hours store 200 m away and a 24/7 one 3 km away, and a neighbour network.
    func engine(lookahead: Int = 30) -> RegionRefreshEngine {
        let locations = [
            Location(networkId: "card", externalId: "near", name: "Near", coordinate: at(200), radiusMeters: 100, openingHours: "Mo-Fr 09:00-17:00"),
            Location(networkId: "card", externalId: "far", name: "Far", coordinate: at(3_000), radiusMeters: 100, openingHours: "24/7"),
            Location(networkId: "other", externalId: "1", name: "Other", coordinate: at(500), radiusMeters: 100, openingHours: "Sa-Su 10:00-16:00"),
        ]
        let index = LocationIndex.build(locations: locations, networks: [Network(id: "card", name: "Card"), Network(id: "other", name: "Other")])
        return RegionRefreshEngine(index: index, configuration: EngineConfiguration(closedLookaheadMinutes: lookahead))
    }

    func order(_ engine: RegionRefreshEngine, weekday: Int, _ hour: Int, _ minute: Int = 0) throws -> [Region] {
        let clock = LocalWallClock(weekday: weekday, minuteOfDay: hour * 60 + minute)
        return try engine.refresh(RefreshParameters(center: origin, cardNetworks: ["card"], localTime: clock, explain: true), now: Date()).regions
    }

    @Test("closed after hours: the open store farther away comes first, the reason in explain")
    func closedRanksBelowOpen() throws {
        let regions = try order(engine(), weekday: 0, 20)
        #expect(regions.map(\.id) == ["loc_card_far", "loc_card_near", "loc_other_1"])
        #expect(regions[1].explain?.closedSoon == true && regions[1].explain?.openingHours == "Mo-Fr 09:00-17:00")
        #expect(regions[0].explain?.closedSoon == false && regions[0].explain?.openingHours == "24/7")
        // The score shown is the distance score alone: the closed store is nearer its boundary than the open one.
        #expect(regions[1].explain!.score < regions[0].explain!.score)
        #expect(try order(engine(), weekday: 5, 12).map(\.id) == ["loc_card_far", "loc_card_near", "loc_other_1"])
    }

    @Test("open, or opening within the lookahead: distance decides")
    func openStoresRankByDistance() throws {
        #expect(try order(engine(), weekday: 2, 10).map(\.id) == ["loc_card_near", "loc_card_far", "loc_other_1"])
        // Opens at 09:00, half an hour ahead of 08:31 is not all closed.
        #expect(try order(engine(), weekday: 2, 8, 31).map(\.id) == ["loc_card_near", "loc_card_far", "loc_other_1"])
        #expect(try order(engine(), weekday: 2, 8, 30).map(\.id) == ["loc_card_far", "loc_card_near", "loc_other_1"])
        // Closes at 17:00: at 16:59 it is open for a minute of the half hour.
        #expect(try order(engine(), weekday: 4, 16, 59).map(\.id) == ["loc_card_near", "loc_card_far", "loc_other_1"])
    }

    @Test("without a local time, or with the lookahead 0, hours are not read")
    func hoursNeedALocalTimeAndALookahead() throws {
        let plain = try engine().refresh(RefreshParameters(center: origin, cardNetworks: ["card"], explain: true), now: Date())
        #expect(plain.regions.map(\.id) == ["loc_card_near", "loc_card_far", "loc_other_1"])
        #expect(plain.regions[0].explain?.closedSoon == nil && plain.regions[0].explain?.openingHours == "Mo-Fr 09:00-17:00")
        let off = try order(engine(lookahead: 0), weekday: 0, 20)
        #expect(off.map(\.id) == ["loc_card_near", "loc_card_far", "loc_other_1"] && off[0].explain?.closedSoon == nil)
    }

    @Test("the other tier: a closed neighbour ranks after an open one")
    func otherTier() throws {
        let regions = try engine().refresh(
            RefreshParameters(center: origin, localTime: LocalWallClock(weekday: 6, minuteOfDay: 12 * 60)), now: Date()
        ).regions
        // Sunday noon: the office-hours store is closed, the weekend one and the 24/7 one open.
        #expect(regions.map(\.id) == ["loc_other_1", "loc_card_far", "loc_card_near"])
    }

    @Test("closed for the lookahead, minute by minute, as OpeningHours.state says, the week wrapping")
    func tableAgainstMinuteByMinute() throws {
        let values = [
            "Mo-Fr 09:00-17:00", "Su 22:00-02:00", "Mo-Sa 08:00-22:00; Su 10:00-18:00", "24/7", "off", "Tu 10:00-10:01",
            "Mo-Fr 06:30-09:15 unknown", "Sa 23:59-24:00",
        ]
        var builder = OpeningHoursTable.Builder()
        for v in values { builder.add(v) }
        let table = builder.finish(order: values.indices.map(UInt32.init))
        var rng = SeededRandom(seed: 7)
        for (k, v) in values.enumerated() {
            let hours = try #require(OpeningHours(v))
            for _ in 0..<400 {
                let start = Int.random(in: 0..<10_080, using: &rng)
                let minutes = [1, 2, 30, 63, 64, 65, 600, 1440].randomElement(using: &rng)!
                let closed = (0..<minutes).allSatisfy { i in
                    let m = (start + i) % 10_080
                    return hours.state(weekday: m / 1440, minute: m % 1440) == .closed
                }
                #expect(table.isClosed(UInt32(k), from: start, forMinutes: minutes) == closed, "\(v) from \(start) for \(minutes)")
            }
        }
    }

    @Test("the weekday of a date is the one Foundation's Gregorian calendar gives")
    func weekdayAgainstFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var rng = SeededRandom(seed: 11)
        for _ in 0..<2_000 {
            // Foundation switches to the Julian calendar before October 1582; RFC 3339 is proleptic Gregorian.
            let year = Int.random(in: 1583...9999, using: &rng)
            let month = Int.random(in: 1...12, using: &rng)
            let day = Int.random(in: 1...LocalWallClock.daysIn(month: month, year: year), using: &rng)
            let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)))
            // Foundation counts Sunday as 1.
            let expected = (calendar.component(.weekday, from: date) + 5) % 7
            let text = String(format: "%04d-%02d-%02dT07:45:00+05:30", year, month, day)
            let clock = try #require(LocalWallClock(rfc3339: text))
            #expect(clock.weekday == expected && clock.minuteOfDay == 7 * 60 + 45, "\(text)")
        }
        // 2025-11-22 was a Saturday; the offset does not move the wall clock.
        #expect(LocalWallClock(rfc3339: "2025-11-22T23:30:00-08:00") == LocalWallClock(weekday: 5, minuteOfDay: 23 * 60 + 30))
        #expect(LocalWallClock(rfc3339: "0000-03-01T00:00:00Z")?.weekday == 2)
    }
}
