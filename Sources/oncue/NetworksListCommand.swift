import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore
import OnCueContract

extension Networks {
    /// A network as `list` and `show` print it with --format json.
    struct Entry: Encodable {
        var id: String
        var name: String
        var category: String?
        var large_area: Bool
        var default_radius_m: Double?
        var wikidata: String?
        var locations: Int
        var aliases: [String]

        init(_ s: NetworkSummary) {
            id = s.network.id
            name = s.network.name
            category = s.network.category
            large_area = s.network.isLargeArea
            default_radius_m = s.network.defaultRadiusMeters
            wikidata = s.network.wikidata
            locations = s.locationCount
            aliases = s.aliases
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Networks with their location counts and aliases (the first 100 unless --limit says otherwise).",
            discussion: """
                --match keeps the networks whose id, name or an alias holds TEXT (ignoring case and accents).

                Example:
                  oncue networks list --db stores.sqlite --match costco
                  oncue networks list --db stores.sqlite --limit 0 --format json
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "Only networks whose id, name or an alias holds this text.") var match: String?
        @Option(help: "At most this many networks (0: all).") var limit: Int = 100
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if limit < 0 { throw ValidationError("--limit must be 0 (all) or more") }
        }

        func run() async throws {
            let all = try await store.withStore(readOnly: true) { try await $0.networks() }
            let matching = match.map { text in all.filter { Self.summary($0, holds: text) } } ?? all
            let shown = limit == 0 ? matching[...] : matching.prefix(limit)
            if output.isJSON {
                print(try jsonString(shown.map(Entry.init)))
            } else {
                print(
                    textTable(
                        ["id", "name", "category", "large area", "radius m", "wikidata", "locations", "aliases"],
                        shown.map {
                            [
                                $0.network.id, $0.network.name, $0.network.category ?? "", $0.network.isLargeArea ? "yes" : "",
                                $0.network.defaultRadiusMeters.map { String(format: "%g", $0) } ?? "", $0.network.wikidata ?? "",
                                formatCount($0.locationCount), $0.aliases.joined(separator: "; "),
                            ]
                        }), terminator: "")
            }
            if shown.count < matching.count {
                FileHandleOutput.standardError.write(
                    "\(formatCount(shown.count)) of \(formatCount(matching.count)) networks shown; --limit 0 shows all, --match TEXT filters\n")
            } else if matching.isEmpty, let match {
                FileHandleOutput.standardError.write("no network's id, name or alias holds '\(match.forMessage())'\n")
            }
        }

        static func summary(_ s: NetworkSummary, holds text: String) -> Bool {
            let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
            return ([s.network.id, s.network.name] + s.aliases).contains { $0.range(of: text, options: options) != nil }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One network: its settings, location count and aliases.",
            discussion: """
                ID is a network id, or an alias or spelling the store resolves to one.

                Example:
                  oncue networks show costco --db stores.sqlite
                """
        )
        @Argument(help: "Network id (or an alias).") var id: String
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let id = id
            let (found, ids) = try await store.withStore(readOnly: true) { store -> (NetworkSummary?, [String]) in
                let all = try await store.networks()
                let resolved = try await store.resolveNetwork(id) ?? id
                return (all.first { $0.network.id == resolved }, all.map(\.network.id))
            }
            guard let found else {
                let hint = FieldNames.nearMiss(id, among: ids).map { " (did you mean '\($0)'?)" } ?? ""
                throw CommandFailure("no network '\(id.forMessage())'\(hint); oncue networks list --match TEXT finds one")
            }
            if output.isJSON {
                print(try jsonString(Entry(found)))
                return
            }
            let n = found.network
            print("\(n.id.forMessage(limit: nil)): \(n.name.forMessage(limit: nil))")
            let rows: [(String, String)] = [
                ("category", n.category ?? "-"), ("large area", n.isLargeArea ? "yes" : "no"),
                ("radius", n.defaultRadiusMeters.map { String(format: "%g m", $0) } ?? "by policy"), ("wikidata", n.wikidata ?? "-"),
                ("locations", formatCount(found.locationCount)),
                ("aliases", found.aliases.isEmpty ? "-" : found.aliases.joined(separator: "; ")),
            ]
            for (label, value) in rows { print("  \(label.padding(toLength: 11, withPad: " ", startingAt: 0))\(value.forMessage(limit: nil))") }
        }
    }
}
