import Foundation
import TestSupport
import Testing

@testable import TraceReplay

/// Every file of `../shared/datasets/trace-*` read with the counts from its SOURCE.md (points, no-time points,
/// time going backwards, >250 km/h spikes, gaps over 5 min). The cleaning counts (duplicates, drops, splits,
/// segments, fixes kept) come from the independent oracle `simulations/tools/trace_oracle.py`.
@Suite(.needsSharedDatasets) struct DatasetReaderTests {
    struct Expected: Sendable, CustomStringConvertible {
        var path: String
        var points: Int, noTime: Int, backwards: Int, spikes: Int, gaps5: Int
        var duplicates: Int, drops: Int, splits: Int, segments: Int, fixes: Int
        var description: String { path }
    }

    static let files: [Expected] = [
        .init(
            path: "trace-csv-misc/demodata_geolife.csv", points: 5908, noTime: 0, backwards: 2, spikes: 3, gaps5: 10, duplicates: 0, drops: 4,
            splits: 7, segments: 8, fixes: 5904),
        .init(
            path: "trace-csv-misc/posmo_trajectory.csv", points: 1327, noTime: 0, backwards: 5, spikes: 85, gaps5: 0, duplicates: 0, drops: 177,
            splits: 0, segments: 8, fixes: 1150),
        .init(
            path: "trace-geolife-beijing/geolife_long/000/Trajectory/20081023025304.plt", points: 908, noTime: 0, backwards: 0, spikes: 0, gaps5: 6,
            duplicates: 0, drops: 0, splits: 1, segments: 2, fixes: 908),
        .init(
            path: "trace-geolife-beijing/geolife_long/000/Trajectory/20081024020959.plt", points: 244, noTime: 0, backwards: 0, spikes: 0, gaps5: 2,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 244),
        .init(
            path: "trace-geolife-beijing/geolife_long/001/Trajectory/20081023055305.plt", points: 961, noTime: 0, backwards: 0, spikes: 1, gaps5: 2,
            duplicates: 0, drops: 4, splits: 1, segments: 2, fixes: 957),
        .init(
            path: "trace-geolife-beijing/geolife_long/001/Trajectory/20081023234104.plt", points: 2128, noTime: 0, backwards: 0, spikes: 0, gaps5: 7,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 2128),
        .init(
            path: "trace-geolife-beijing/geolife_modes/010/Trajectory/20080330004134.plt", points: 681, noTime: 0, backwards: 0, spikes: 0, gaps5: 5,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 681),
        .init(
            path: "trace-geolife-beijing/geolife_modes/010/Trajectory/20080330160039.plt", points: 818, noTime: 0, backwards: 0, spikes: 0, gaps5: 9,
            duplicates: 0, drops: 0, splits: 1, segments: 2, fixes: 818),
        .init(
            path: "trace-geolife-beijing/geolife_modes/010/Trajectory/20080331160008.plt", points: 915, noTime: 0, backwards: 0, spikes: 0, gaps5: 5,
            duplicates: 0, drops: 0, splits: 1, segments: 2, fixes: 915),
        .init(
            path: "trace-geolife-beijing/geolife_modes/010/Trajectory/20080402060926.plt", points: 1004, noTime: 0, backwards: 0, spikes: 0, gaps5: 1,
            duplicates: 0, drops: 0, splits: 1, segments: 2, fixes: 1004),
        .init(
            path: "trace-geolife-beijing/geolife_modes/020/Trajectory/20111130020900.plt", points: 66, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 66),
        .init(
            path: "trace-geolife-beijing/geolife_modes/020/Trajectory/20111130151807.plt", points: 327, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 327),
        .init(
            path: "trace-geolife-beijing/geolife_modes/020/Trajectory/20111130152335.plt", points: 256, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 256),
        .init(
            path: "trace-geolife-beijing/geolife_modes/020/Trajectory/20111201123535.plt", points: 66, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 66),
        .init(
            path: "trace-geolife-beijing/geolife_modes/178/Trajectory/20100312172608.plt", points: 84, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 84),
        .init(
            path: "trace-gpx-motorcycle-us-pacific-coast/160718combined.GPX", points: 0, noTime: 0, backwards: 0, spikes: 0, gaps5: 0, duplicates: 0,
            drops: 0, splits: 0, segments: 0, fixes: 0),
        .init(
            path: "trace-gpx-motorcycle-us-pacific-coast/180614.GPX", points: 4987, noTime: 0, backwards: 1, spikes: 0, gaps5: 4, duplicates: 804,
            drops: 0, splits: 0, segments: 1, fixes: 4183),
        .init(
            path: "trace-gpx-motorcycle-us-pacific-coast/180617.GPX", points: 6965, noTime: 0, backwards: 0, spikes: 0, gaps5: 0, duplicates: 0,
            drops: 0, splits: 0, segments: 1, fixes: 6965),
        .init(
            path: "trace-gpx-motorcycle-us-pacific-coast/180618.GPX", points: 3990, noTime: 0, backwards: 0, spikes: 0, gaps5: 2, duplicates: 0,
            drops: 0, splits: 0, segments: 1, fixes: 3990),
        .init(
            path: "trace-gpx-motorcycle-us-pacific-coast/180619.GPX", points: 2506, noTime: 0, backwards: 0, spikes: 0, gaps5: 4, duplicates: 0,
            drops: 0, splits: 0, segments: 1, fixes: 2506),
        .init(
            path: "trace-gpx-slovenia-croatia-gpxpy/around-visnjan-with-car.gpx", points: 104, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 104),
        .init(
            path: "trace-gpx-slovenia-croatia-gpxpy/cerknicko-jezero.gpx", points: 296, noTime: 0, backwards: 0, spikes: 1, gaps5: 4, duplicates: 0,
            drops: 1, splits: 0, segments: 1, fixes: 295),
        // Times are synthesised for the 291 untimed points, so all 296 are kept (the oracle, which drops untimed points, keeps 5).
        .init(
            path: "trace-gpx-slovenia-croatia-gpxpy/cerknicko-without-times.gpx", points: 296, noTime: 291, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 296),
        .init(
            path: "trace-gpx-slovenia-croatia-gpxpy/track-with-empty-segment.gpx", points: 9, noTime: 0, backwards: 0, spikes: 0, gaps5: 0,
            duplicates: 0, drops: 0, splits: 0, segments: 1, fixes: 9),
    ]

    @Test(arguments: files)
    func countsMatchSourceAndOracle(_ e: Expected) throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path(e.path))
        let r = trace.report
        #expect(r.points == e.points)
        #expect(r.pointsWithoutTime == e.noTime)
        #expect(r.timeGoesBackwards == e.backwards)
        #expect(r.spikesInFileOrder == e.spikes)
        #expect(r.gapsOver5Min == e.gaps5)
        #expect(r.duplicatesRemoved == e.duplicates)
        #expect(r.jumpsDropped == e.drops)
        #expect(r.gapSplits == e.splits)
        #expect(r.segments == e.segments)
        #expect(r.fixes == e.fixes)
        #expect(trace.fixCount == e.fixes)
        #expect(r.sorted == (e.backwards > 0))
        for segment in trace.segments {
            #expect(!segment.isEmpty)
            #expect(zip(segment, segment.dropFirst()).allSatisfy { $0.time <= $1.time }, "segments are time-ordered")
        }
    }

    @Test func wholeSetTotals() throws {
        var points = 0
        for e in Self.files { points += try TraceLoader.load(path: SharedDatasets.path(e.path)).report.points }
        // SOURCE.md totals: 7235 + 8458 + 18448 + 705.
        #expect(points == 7235 + 8458 + 18448 + 705)
    }

    @Test func emptyButWellFormedGPX() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-gpx-motorcycle-us-pacific-coast/160718combined.GPX"))
        #expect(trace.segments.isEmpty)
        #expect(trace.report.warnings.contains { $0.contains("no points") })
    }

    @Test func emptySegmentIsReported() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-gpx-slovenia-croatia-gpxpy/track-with-empty-segment.gpx"))
        #expect(trace.report.emptyParts == 1)
        #expect(trace.report.parts == 2)
    }

    @Test func waypointsBesideTracksAreNotTheTrace() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-gpx-slovenia-croatia-gpxpy/cerknicko-jezero.gpx"))
        #expect(trace.report.ignoredWaypoints == 7)
        #expect(trace.report.parts == 8)
        #expect(trace.segments[0].first?.time == TraceTime.parseISO("2010-08-05T14:23:59Z"))
        #expect(trace.segments[0].last?.time == TraceTime.parseISO("2010-08-05T16:23:49Z"))
    }

    @Test func missingTimesAreSynthesisedAndFlagged() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-gpx-slovenia-croatia-gpxpy/cerknicko-without-times.gpx"))
        let fixes = trace.fixes
        #expect(fixes.filter(\.timeSynthesised).count == 291)
        // The 5 real times are the last 5 points and survive unchanged.
        #expect(fixes.suffix(5).allSatisfy { !$0.timeSynthesised })
        #expect(fixes.last?.time == TraceTime.parseISO("2010-08-05T16:23:49Z"))
        // Walking speed backwards from the first real time: 13.67 km of polyline in 291 steps is about 2.6 h.
        let hours = (fixes[fixes.count - 5].time - fixes[0].time) / 3600
        #expect(hours > 2.4 && hours < 2.8)
        #expect(trace.report.warnings.contains { $0.contains("291 points have no time") })
    }

    @Test func geolifeMinus777AltitudeAndLabels() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-geolife-beijing/geolife_modes/010/Trajectory/20080330004134.plt"))
        // All 681 fixes of this file carry -777: altitude dropped everywhere and warned.
        #expect(trace.fixes.allSatisfy { $0.altitude == nil })
        #expect(trace.report.warnings.contains { $0.contains("681 fixes have altitude -777") })
        // labels.txt: this leg of the journey is labelled train.
        let modes = Set(trace.fixes.compactMap(\.mode))
        #expect(modes == ["train"])
    }

    @Test func geolifeTimesAreGMT() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-geolife-beijing/geolife_long/000/Trajectory/20081023025304.plt"))
        #expect(trace.fixes.first?.time == TraceTime.parseISO("2008-10-23T02:53:04Z"))
        #expect(trace.fixes.last?.time == TraceTime.parseISO("2008-10-23T11:11:12Z"))
        // The 307-minute desk gap splits the day in two.
        #expect(trace.report.maxGapMinutes == 307.6)
    }

    @Test func posmoLonBeforeLatAndAccuracy() throws {
        let trace = try TraceLoader.load(path: SharedDatasets.path("trace-csv-misc/posmo_trajectory.csv"))
        let first = try #require(trace.fixes.first)
        #expect(abs(first.latitude - 47.0516249) < 1e-9 && abs(first.longitude - 7.0389004) < 1e-9)
        // 0.0 accuracy means "unknown", not "perfect".
        #expect(first.accuracy == nil)
        #expect(trace.fixes.contains { $0.accuracy == 24 || $0.accuracy == 32 || $0.accuracy == 48 })
        #expect(trace.report.warnings.contains { $0.contains("no zone") })
        // Nanosecond fraction kept to the microsecond.
        #expect(abs(first.time - (TraceTime.parseISO("2019-01-25T20:00:16Z")! + 0.178999901)) < 1e-6)
    }
}
