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
        subcommands: [List.self, Show.self, Set.self, Alias.self, Delete.self, Merge.self]
    )

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
        @Option(help: "Category (grocery, wholesale, coffee, library, pharmacy, fast-food, theme-park, ...).") var category: String?
        @Option(help: "true for venues that get large regions (theme parks, airports).") var largeArea: Bool?
        @Option(help: "Radius in metres for every location of the network (0 removes it).") var defaultRadiusM: Double?

        /// The options given, as the change the admin API's PATCH would make ("" and 0 remove a category and a radius).
        var change: NetworkChange {
            NetworkChange(
                name: name, category: category.map { $0.isEmpty ? nil : $0 }, isLargeArea: largeArea,
                defaultRadiusMeters: defaultRadiusM.map { $0 == 0 ? nil : $0 })
        }

        func validate() throws {
            guard Network.slug(id) == id else {
                throw ValidationError("network id '\(id.forMessage())' is not a slug; use '\(Network.slug(id).forMessage())'")
            }
            try checkLength("network id", id, FieldLimits.networkId)
            // The admin API's rule, worded with this command's options.
            if let problem = change.problem() {
                let option =
                    ["name": "--name", "category": "--category", "default_radius_meters": "--default-radius-m"][problem.field] ?? problem.field
                throw ValidationError("\(option) \(problem.reason.replacingOccurrences(of: "or null to remove it", with: "or 0 to remove it"))")
            }
        }

        func run() async throws {
            let change = self.change
            let id = id
            let network = try await store.withStore { store in
                let current = try await store.network(id: id)
                if current == nil, let problem = NetworkChange.newIdProblem(id, existing: try await store.networks().map(\.network.id)) {
                    throw CommandFailure(problem + " (oncue networks alias ID SPELLING)")
                }
                let network = change.applied(to: current, id: id)
                return try await CommandAudit.recorded(store, action: "networks set", target: id) {
                    try await store.upsertNetwork(network)
                    return network
                }
            }
            print(
                "\(network.id.forMessage(limit: nil)): \(network.name.forMessage(limit: nil)), "
                    + "category \((network.category ?? "-").forMessage(limit: nil)), large area \(network.isLargeArea ? "yes" : "no"), "
                    + "radius \(network.defaultRadiusMeters.map { String(format: "%g m", $0) } ?? "by policy")")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a network with its locations and aliases (one transaction; the import log stays).",
            discussion: """
                A running server serves without them after its next index build (at once for a server that made the \
                change, within its poll for the others).

                Example:
                  oncue networks delete chipotle-mexican-grill --db stores.sqlite
                """
        )
        @Argument(help: "Network id.") var id: String
        @OptionGroup var store: StoreOptions

        func validate() throws { try checkLength("network id", id, FieldLimits.networkId) }

        func run() async throws {
            let id = id
            let deletion = try await store.withStore { store in
                try await CommandAudit.recorded(
                    store, action: "networks delete", target: id,
                    detail: { $0.map { "\($0.locationsRemoved) locations removed" } ?? "no such network" },
                    failed: { $0 == nil }
                ) { try await store.deleteNetwork(id: id) }
            }
            guard let deletion else { throw StoreError.unknownNetwork(id) }
            print(
                "deleted \(id.forMessage(limit: nil)): \(formatCount(deletion.locationsRemoved)) locations, "
                    + "\(deletion.aliasesRemoved) aliases")
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge one network into another: its locations move, and its id, name and aliases become aliases.",
            discussion: """
                A location of FROM within 10 m of one INTO already has is a near-duplicate and is dropped; a moved \
                location whose id INTO already uses elsewhere gets the id FROM:ID. Imports and user_networks that name \
                FROM reach INTO afterwards. One transaction.

                Example:
                  oncue networks merge chipotle-mexican-grill chipotle --db stores.sqlite
                """
        )
        @Argument(help: "The network that goes.") var from: String
        @Argument(help: "The network that stays.") var into: String
        @OptionGroup var store: StoreOptions

        func validate() throws {
            try checkLength("network id", from, FieldLimits.networkId)
            try checkLength("network id", into, FieldLimits.networkId)
            guard from != into else { throw ValidationError("a network cannot be merged into itself ('\(from.forMessage())')") }
        }

        func run() async throws {
            let (from, into) = (from, into)
            let merge = try await store.withStore { store in
                try await CommandAudit.recorded(store, action: "networks merge", target: from, detail: { _ in "into \(into)" }) {
                    try await store.mergeNetwork(from, into: into)
                }
            }
            print(
                "merged \(from.forMessage(limit: nil)) into \(into.forMessage(limit: nil)): \(formatCount(merge.moved)) moved, "
                    + "\(merge.deduplicated) near-duplicates dropped, \(merge.renamed) ids prefixed with '\(from.forMessage(limit: nil)):'")
        }
    }

    struct Alias: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a brand spelling resolve to a network when importing with --network-column.",
            discussion: """
                Case, spaces and punctuation are ignored, so one alias covers "SONIC Drive In" and \
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
            if NetworkText.hasBidiControl(name) { throw ValidationError("the alias must not hold bidirectional control characters") }
        }

        func run() async throws {
            let (name, id) = (name, id)
            try await store.withStore { store in
                try await CommandAudit.recorded(store, action: "networks alias", target: id, detail: { _ in "alias \(name)" }) {
                    try await store.addAdminAlias(name, networkId: id)
                }
            }
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
