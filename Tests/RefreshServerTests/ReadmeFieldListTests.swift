import Foundation
import Testing

/// README's lists of the region-refresh request's, answer's and region's fields are those of openapi.yaml: a field
/// added to the contract and not to the user's guide (or the other way round) fails here.
@Suite struct ReadmeFieldListTests {
    static func properties(_ schema: String) throws -> Set<String> {
        let resolved = try #require(OpenAPIContract.shared.resolve("#/components/schemas/\(schema)"))
        guard case .map(let pairs) = try #require(resolved["properties"]) else { return [] }
        return Set(pairs.map(\.0))
    }

    /// The backticked names between two phrases of README's region-refresh paragraph.
    static func names(_ text: String, from start: String, to end: String) throws -> Set<String> {
        let from = try #require(text.range(of: start))
        let to = try #require(text.range(of: end, range: from.upperBound..<text.endIndex))
        let part = text[from.upperBound..<to.lowerBound]
        // Every second piece between backticks is a name; options (`--min-radius-m`) and examples are not fields.
        let pieces = part.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
        return Set(pieces.map { String($0.element) }.filter { $0.allSatisfy { $0.isLowercase || $0 == "_" } })
    }

    @Test func readmeNamesEveryFieldTheContractHas() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let request = try Self.names(readme, from: "`POST /v1/region-refresh` takes", to: "A member written another way")
        #expect(request == (try Self.properties("RegionRefreshRequest")))
        let answer = try Self.names(readme, from: "It answers", to: "Each\nregion has")
        #expect(answer == (try Self.properties("RegionRefreshResponse")))
        let region = try Self.names(readme, from: "region has", to: "([openapi.yaml]")
        #expect(region == (try Self.properties("Region")))
    }
}
