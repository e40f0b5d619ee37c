import Foundation
import OnCueContract
import Testing

@testable import RegionRefresh

/// The inputs the libFuzzer campaign found (Fuzz/Regressions/RequestDiffFuzzer, RELIABILITY.md), replayed with the
/// fuzzer's property: the fast reader and JSONDecoder give the same request or the same error.
@Suite("Fuzz regressions: region-refresh request")
struct RequestFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/RequestDiffFuzzer")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(arguments: inputs)
    func fastReaderAgreesWithTheReference(name: String) throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decode(jsonBytes: raw) }
        }
        let reference = Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decodeWithFoundation(bytes) }
        #expect(outcome == reference)
    }

    @Test func theRegressionsAreThere() {
        #expect(!Self.inputs.isEmpty, "no inputs in \(Self.folder.path)")
    }

    /// The finding, by hand: bytes that are not UTF-8 in a key the fast reader would skip, or in a value it reads.
    @Test(arguments: [
        [UInt8](#"{"lat": 40, "lon": -74, "use"#.utf8) + [0xFF] + Array(#"_networks": null}"#.utf8),
        [UInt8](#"{"lat": 40, "lon": -74, "user_networks": [""#.utf8) + [0xC3, 0x28] + Array(#""]}"#.utf8),
        [UInt8](#"{"lat": 40, "lon": -74, "note": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
    ])
    func invalidUTF8IsRefusedByBoth(bytes: [UInt8]) {
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decode(jsonBytes: raw) }
        }
        #expect(outcome == Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decodeWithFoundation(Data(bytes)) })
        #expect(bytes.withUnsafeBytes { RequestFastParser.parse($0) } == nil)
    }
}

/// Inputs NameTextFuzzer found: the duplicate-member scanner once looped forever on a member without a value
/// (`{"": 1}` spelt `{""": 1}`), reachable from an admin body before its syntax was checked.
@Suite("Fuzz regressions: names and JSON members")
struct NameTextFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/NameTextFuzzer")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(arguments: inputs)
    func theScannerEnds(name: String) throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        _ = bytes.withUnsafeBytes { JSONShape.firstDuplicate(in: $0) }
        for broken in [#"{"a": }"#, #"{"a" 1}"#, "[1,,2]", #"{"a": [1, }"#, "{:}", "]"] {
            _ = Data(broken.utf8).withUnsafeBytes { JSONShape.firstDuplicate(in: $0) }
        }
    }

    @Test func theRegressionsAreThere() {
        #expect(!Self.inputs.isEmpty, "no inputs in \(Self.folder.path)")
    }
}
