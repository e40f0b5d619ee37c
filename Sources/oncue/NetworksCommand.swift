import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore
import RegionRefresh

/// `oncue networks`: chains and systems, their settings and brand aliases.
struct Networks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "networks",
        abstract: "List networks, change their settings, and map brand spellings to them.",
        subcommands: [List.self, Set.self, Alias.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every network with its location count and aliases.",
            discussion: """
                Example:
                  oncue networks list --db stores.sqlite
                """
        )
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        struct Entry: Encodable {
            var id: String
            var name: String
            var category: String?
            var large_area: Bool
            var default_radius_m: Double?
            var locations: Int
            var aliases: [String]
        }

        func run() async throws {
            let networks = try await store.withStore(readOnly: true) { try await $0.networks() }
            if output.isJSON {
                print(
                    try jsonString(
                        networks.map {
                            Entry(
                                id: $0.network.id, name: $0.network.name, category: $0.network.category, large_area: $0.network.isLargeArea,
                                default_radius_m: $0.network.defaultRadiusMeters, locations: $0.locationCount, aliases: $0.aliases)
                        }))
                return
            }
            print(
                textTable(
                    ["id", "name", "category", "large area", "radius m", "locations", "aliases"],
                    networks.map {
                        [
                            $0.network.id, $0.network.name, $0.network.category ?? "", $0.network.isLargeArea ? "yes" : "",
                            $0.network.defaultRadiusMeters.map { String(format: "%g", $0) } ?? "", formatCount($0.locationCount),
                            $0.aliases.joined(separator: "; "),
                        ]
                    }), terminator: "")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a network or change its settings (only the options given change).",
            discussion: """
                Example:
                  oncue networks set costco --db stores.sqlite --name "Costco Wholesale" --category wholesale
                  oncue networks set disneyland --db stores.sqlite --large-area true --default-radius-m 1500
                """
        )
        @Argument(help: "Network id (a slug such as costco).") var id: String
        @OptionGroup var store: StoreOptions
        @Option(help: "Display name.") var name: String?
        @Option(help: "Category (grocery, wholesale, coffee, library, pharmacy, fast-food, theme-park, …).") var category: String?
        @Option(help: "true for venues that get large regions (theme parks, airports).") var largeArea: Bool?
        @Option(help: "Radius in metres for every location of the network (0 removes it).") var defaultRadiusM: Double?

        func validate() throws {
            guard Network.slug(id) == id else {
                throw ValidationError("network id '\(id.forMessage())' is not a slug; use '\(Network.slug(id).forMessage())'")
            }
            try checkLength("network id", id, FieldLimits.networkId)
            if let name { try checkLength("--name", name, FieldLimits.networkName) }
            if let category { try checkLength("--category", category, FieldLimits.category) }
            // 0 is this option's spelling of "no radius" (JSON's null), not a radius; every radius keeps the engine's rule.
            if let r = defaultRadiusM, r != 0, !EngineConfiguration.isValidNetworkRadius(r) {
                throw ValidationError("--default-radius-m must be \(EngineConfiguration.networkRadiusRule), or 0 to remove it")
            }
        }

        func run() async throws {
            let network = try await store.withStore { store in
                var network = try await store.network(id: id) ?? Network(id: id, name: name ?? id)
                if let name { network.name = name }
                if let category { network.category = category.isEmpty ? nil : category }
                if let largeArea { network.isLargeArea = largeArea }
                if let r = defaultRadiusM { network.defaultRadiusMeters = r == 0 ? nil : r }
                try await store.upsertNetwork(network)
                return network
            }
            print(
                "\(network.id.forMessage(limit: nil)): \(network.name.forMessage(limit: nil)), "
                    + "category \((network.category ?? "-").forMessage(limit: nil)), large area \(network.isLargeArea ? "yes" : "no"), "
                    + "radius \(network.defaultRadiusMeters.map { String(format: "%g m", $0) } ?? "by policy")")
        }
    }

    struct Alias: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a brand spelling resolve to a network when importing with --network-column.",
            discussion: """
                Case, spaces and punctuation are ignored, so one alias covers "SONIC Drive In" and
                "Sonic Drive-In"; a different word ("SONIC" alone) needs its own alias.

                Example:
                  oncue networks alias sonic --db stores.sqlite "SONIC Drive In"
                  oncue networks alias sonic --db stores.sqlite "Sonic"
                """
        )
        @Argument(help: "Network id.") var id: String
        @Argument(help: "Brand name as it appears in files.") var name: String
        @OptionGroup var store: StoreOptions

        func validate() throws {
            try checkLength("network id", id, FieldLimits.networkId)
            try checkLength("the alias", name, FieldLimits.alias)
        }

        func run() async throws {
            try await store.withStore { try await $0.addAlias(name, networkId: id) }
            print("'\(name.forMessage(limit: nil))' → \(id.forMessage(limit: nil))")
        }
    }
}

/// Refuses a value longer than the store keeps for its field (`FieldLimits`, the admin API's limits too).
private func checkLength(_ what: String, _ value: String, _ limit: Int) throws {
    if FieldLimits.exceeds(value, limit) {
        throw ValidationError("\(what) '\(value.forMessage(limit: 40))' is longer than \(limit) characters")
    }
}
