import Foundation
import TestSupport
import Testing

@testable import TraceReplay

/// Readers on small hand-written inputs (formats the shared files do not cover).
@Suite struct TraceReaderTests {
    @Test func isoVariants() {
        let base = TraceTime.parseISO("2020-01-02T03:04:05Z")!
        #expect(base == 1_577_934_245)
        #expect(TraceTime.parseISO("2020-01-02 03:04:05+00") == base)
        #expect(TraceTime.parseISO("2020-01-02T05:04:05+02:00") == base)
        #expect(TraceTime.parseISO("2020-01-02T01:04:05-0200") == base)
        #expect(TraceTime.parseISO("2020/01/02 03:04:05") == base)
        #expect(TraceTime.parseISO("2020-01-02T03:04:05.250Z") == base + 0.25)
        #expect(TraceTime.parseISO("2020-13-02T03:04:05Z") == nil)
        #expect(TraceTime.parseISO("yesterday") == nil)
        #expect(TraceTime.format(base) == "2020-01-02T03:04:05Z")
        #expect(TraceTime.format(base + 0.5) == "2020-01-02T03:04:05.500Z")
    }

    @Test func csvEpochMillisecondsTabsAndMapping() throws {
        let text = "when\tlng\tlatitude\n1577934245000\t13.4\t52.5\n1577934246000\t13.4001\t52.5\n"
        let raw = try CSVTraceReader.read(text, mapping: .init(time: "when"))
        #expect(raw.fixes.count == 2)
        #expect(raw.fixes[0].time == 1_577_934_245 && raw.fixes[0].latitude == 52.5 && raw.fixes[0].longitude == 13.4)
        let secs = try CSVTraceReader.read("lat,lon,time\r\n1,2,100\r\n1,2.001,110\r\n")
        #expect(secs.fixes.map(\.time) == [100, 110])
        let headerless = try CSVTraceReader.read("3;4;2020-01-02T03:04:05Z\n", mapping: .init(hasHeader: false))
        #expect(headerless.fixes.first?.latitude == 3 && headerless.fixes.first?.time == 1_577_934_245)
        #expect(throws: TraceReadError.self) { try CSVTraceReader.read("a,b\n1,2\n") }
    }

    @Test func csvWithATrajectoryColumnIsOneTracePerTrajectory() throws {
        let text =
            "X;Y;trajectory_id;t\n116.1;39.1;7;2008-12-11 04:42:14+00\n116.2;39.2;9;2008-12-11 05:00:00+00\n"
            + "116.11;39.11;7;2008-12-11 04:42:16+00\nbad;39.3;9;2008-12-11 05:00:02+00\n"
        let tracks = try CSVTraceReader.readTracks(text)
        #expect(tracks.map(\.track) == ["7", "9"])
        #expect(tracks.map(\.trace.fixes.count) == [2, 1])
        #expect(tracks[1].trace.skipped == 1)
        // Read as one file, the same rows make one trace; a named column that is absent is an error.
        #expect(try CSVTraceReader.read(text).fixes.count == 3)
        #expect(throws: TraceReadError.self) { try CSVTraceReader.readTracks(text, mapping: CSVMapping(track: "trip")) }
    }

    @Test(.needsSharedDatasets) func geolifeDemoCSVHoldsFiveTrajectories() throws {
        // Counts per trajectory_id from awk -F';' over the file (466, 897, 1810, 1864, 871 rows).
        let path = try SharedDatasets.path("trace-csv-misc/demodata_geolife.csv")
        let traces = try TraceLoader.loadAll(path: path)
        #expect(traces.map(\.name) == (1...5).map { "demodata_geolife.csv#\($0)" })
        #expect(traces.map(\.report.points) == [466, 897, 1_810, 1_864, 871])
    }

    @Test func gpx11RoutesAndWaypoints() throws {
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
            <metadata><time>2000-01-01T00:00:00Z</time></metadata>
            <wpt lat="1" lon="1"><name>w</name></wpt>
            <rte><rtept lat="10" lon="20"><time>2020-01-01T00:00:00Z</time><ele>5</ele></rtept>
                 <rtept lat="10.001" lon="20"><time>2020-01-01T00:01:00Z</time><hdop>2</hdop>
                 <extensions><time>1999-01-01T00:00:00Z</time></extensions></rtept></rte>
            </gpx>
            """
        let raw = try GPXReader.read(Data(gpx.utf8))
        #expect(raw.fixes.count == 2)
        #expect(raw.ignoredWaypoints == 1)
        #expect(raw.fixes[1].time == TraceTime.parseISO("2020-01-01T00:01:00Z"), "extension <time> is not the fix time")
        #expect(raw.fixes[0].altitude == 5 && raw.fixes[1].accuracy == 10)
        let onlyWaypoints = try GPXReader.read(Data(#"<gpx version="1.0"><wpt lat="1" lon="2"/><wpt lat="1.5" lon="2"/></gpx>"#.utf8))
        #expect(onlyWaypoints.fixes.count == 2)
        #expect(throws: TraceReadError.self) { try GPXReader.read(Data("<gpx><trk>".utf8)) }
        #expect(throws: TraceReadError.self) { try GPXReader.read(Data("<kml/>".utf8)) }
    }

    @Test func geojsonLineAndMulti() throws {
        let feature = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordTimes":["2020-01-01T00:00:00Z","2020-01-01T00:00:10Z"]},
             "geometry":{"type":"LineString","coordinates":[[13.0,52.0,30],[13.001,52.0]]}},
             {"type":"Feature","properties":{"times":[[1577836820000],[1577836830,1577836840]]},
             "geometry":{"type":"MultiLineString","coordinates":[[[13.002,52.0]],[[13.003,52.0],[13.004,52.0]]]}}]}
            """
        let raw = try GeoJSONTraceReader.read(Data(feature.utf8))
        #expect(raw.fixes.count == 5)
        #expect(raw.parts == 3)
        #expect(raw.fixes.map(\.time) == [1_577_836_800, 1_577_836_810, 1_577_836_820, 1_577_836_830, 1_577_836_840])
        #expect(raw.fixes[0].latitude == 52 && raw.fixes[0].longitude == 13 && raw.fixes[0].altitude == 30)
    }

    @Test func cleanerDropsJumpsSplitsGapsAndDedupes() {
        // 0: origin; 1: duplicate of 0; 2: 1 km in 10 s = 360 km/h (dropped); 3: 100 m after 60 s; 4: 3 h later (split).
        let raw = RawTrace(
            fixes: [
                RawFix(time: 0, latitude: 0, longitude: 0),
                RawFix(time: 0, latitude: 0, longitude: 0),
                RawFix(time: 10, latitude: 0.008993, longitude: 0),
                RawFix(time: 60, latitude: 0.000899, longitude: 0),
                RawFix(time: 60 + 3 * 3600, latitude: 0.001, longitude: 0),
            ], parts: 1)
        let trace = TraceCleaning().clean(raw, name: "t", format: "test")
        #expect(trace.report.duplicatesRemoved == 1)
        #expect(trace.report.jumpsDropped == 1)
        #expect(trace.report.gapSplits == 1)
        #expect(trace.segments.map(\.count) == [2, 1])
    }

    @Test func globAndFolderExpansion() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-glob-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["b.gpx", "a.csv", "notes.md", "sub/c.plt"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        let all = try TraceLoader.expand([dir.path]).map { ($0 as NSString).lastPathComponent }
        #expect(all == ["a.csv", "b.gpx", "c.plt"])
        let globbed = try TraceLoader.expand([dir.appendingPathComponent("*.gpx").path]).map { ($0 as NSString).lastPathComponent }
        #expect(globbed == ["b.gpx"])
    }

    /// A dataset laid out as links (to files and to people's folders elsewhere) is read through them, a link loop
    /// once; a broken link is skipped.
    @Test func foldersOfSymbolicLinks() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("oncue-links-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root) }
        let real = root.appendingPathComponent("real")
        try fm.createDirectory(at: real.appendingPathComponent("000/Trajectory"), withIntermediateDirectories: true)
        _ = fm.createFile(atPath: real.appendingPathComponent("000/Trajectory/a.plt").path, contents: Data())
        _ = fm.createFile(atPath: real.appendingPathComponent("b.gpx").path, contents: Data())
        let linked = root.appendingPathComponent("linked")
        try fm.createDirectory(at: linked, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: linked.appendingPathComponent("000").path, withDestinationPath: real.appendingPathComponent("000").path)
        try fm.createSymbolicLink(atPath: linked.appendingPathComponent("b.gpx").path, withDestinationPath: real.appendingPathComponent("b.gpx").path)
        try fm.createSymbolicLink(atPath: linked.appendingPathComponent("loop").path, withDestinationPath: linked.path)
        try fm.createSymbolicLink(
            atPath: linked.appendingPathComponent("gone.gpx").path, withDestinationPath: root.appendingPathComponent("nowhere.gpx").path)
        let found = try TraceLoader.expand([linked.path]).map { String($0.dropFirst(linked.path.count + 1)) }
        #expect(found == ["000/Trajectory/a.plt", "b.gpx"])
        // The folder given as a link itself.
        let alias = root.appendingPathComponent("alias")
        try fm.createSymbolicLink(atPath: alias.path, withDestinationPath: linked.path)
        #expect(try TraceLoader.expand([alias.path]).count == 2)
    }
}
