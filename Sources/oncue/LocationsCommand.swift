import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import Geo
import LocationStore

/// `oncue locations`: one store added, shown, changed or deleted without re-importing its file — the admin API's
/// `/admin/locations` on a store file or URL. A write is a one-row import (`LocationEditor`): the import's checks and
/// reason codes, an import-log entry, and a change version running servers follow.
struct Locations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations",
        abstract: "Add, show, change or delete one location.",
        subcommands: [Add.self, Show.self, Set.self, Delete.self]
    )

    /// The fields a location's options set (each option left out leaves its field alone in `set`, empty in `add`).
    struct FieldOptions: ParsableArguments {
        @Option(help: "Name.") var name: String?
        @Option(help: "Street address.") var address: String?
        @Option(help: "City.") var city: String?
        @Option(help: "State, province or region code.") var region: String?
        @Option(help: "Postal code.") var postalCode: String?
        @Option(help: "Country.") var country: String?
        @Option(parsing: .unconditional, help: "Latitude, decimal degrees.") var lat: Double?
        @Option(parsing: .unconditional, help: "Longitude, decimal degrees (a negative one as --lon -73.98).") var lon: Double?
        @Option(help: "An explicit region radius in metres, overriding every policy (0 removes it).") var radiusM: Double?
        @Option(help: "A large venue's radius in metres (0 removes it).") var venueRadiusM: Double?
        @Option(help: "OpenStreetMap opening_hours (\"\" removes them).") var openingHours: String?

        func apply(to f: inout LocationFields) {
            if let name { f.name = name }
            if let address { f.address = address }
            if let city { f.city = city }
            if let region { f.region = region }
            if let postalCode { f.postalCode = postalCode }
            if let country { f.country = country }
            if let lat { f.latitude = lat }
            if let lon { f.longitude = lon }
            if let radiusM { f.radiusMeters = radiusM == 0 ? nil : radiusM }
            if let venueRadiusM { f.venueRadiusMeters = venueRadiusM == 0 ? nil : venueRadiusM }
            if let openingHours { f.openingHours = openingHours.isEmpty ? nil : openingHours }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add one location to a network the store knows.",
            discussion: """
                The row goes through the import's checks; its id within the network is derived from the address and \
                point when --id is left out, as an import derives it.

                Example:
                  oncue locations add --db stores.sqlite --network costco --id 1234 --name "Costco Midtown" \\
                    --address "32 W 35th St" --city "New York" --lat 40.74985 --lon -73.98580
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "The network: an id, alias or name the store knows.") var network: String
        @Option(help: "The id within the network (store number, ...).") var id: String?
        @OptionGroup var fields: FieldOptions

        func run() async throws {
            var f = LocationFields()
            f.network = network
            f.id = id
            fields.apply(to: &f)
            let fields = f
            try report(
                try await store.withStore { store in
                    try await CommandAudit.recorded(store, action: "locations add", target: "\(fields.network ?? "")/\(fields.id ?? "")") {
                        do { return try await LocationEditor(store: store).add(fields) } catch LocationEditor.Failure.exists(let id) {
                            throw CommandFailure("location '\(id)' exists already; oncue locations set \(id) changes it")
                        }
                    }
                })
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one location as stored.",
            discussion: """
                Example:
                  oncue locations show loc_costco_1234 --db stores.sqlite --json
                """
        )
        @Argument(help: "The location id (loc_<network>_<id>).") var id: String
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let location = try await store.withStore(readOnly: true) { try await $0.location(resolving: id) }
            guard let location else { throw CommandFailure(LocationEditor.Failure.notFound(id).description) }
            if output.isJSON {
                print(try jsonString(location))
            } else {
                print(Locations.describe(location))
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the fields of one location the options give (the others stay).",
            discussion: """
                Example:
                  oncue locations set loc_costco_1234 --db stores.sqlite --lat 40.74990 --lon -73.98571
                """
        )
        @Argument(help: "The location id (loc_<network>_<id>).") var id: String
        @OptionGroup var store: StoreOptions
        @OptionGroup var fields: FieldOptions

        func run() async throws {
            let fields = self.fields
            let id = self.id
            try report(
                try await store.withStore { store in
                    try await CommandAudit.recorded(store, action: "locations set", target: id) {
                        try await LocationEditor(store: store).update(id) { fields.apply(to: &$0) }
                    }
                })
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete one location (running servers stop serving it after their next index build).",
            discussion: """
                Example:
                  oncue locations delete loc_costco_1234 --db stores.sqlite
                """
        )
        @Argument(help: "The location id (loc_<network>_<id>).") var id: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let id = self.id
            try await store.withStore { store in
                try await CommandAudit.recorded(store, action: "locations delete", target: id) { try await LocationEditor(store: store).delete(id) }
            }
            print("deleted \(id.forMessage(limit: nil))")
        }
    }

    /// One line for a location: id, name, point, radius.
    static func describe(_ l: Location) -> String {
        var parts = ["\(l.id.forMessage(limit: nil)): \(l.name.forMessage(limit: nil))"]
        if let address = l.address { parts.append(address.forMessage(limit: nil)) }
        parts.append(String(format: "%.6f, %.6f", l.coordinate.latitude, l.coordinate.longitude))
        if let r = l.radiusMeters { parts.append(String(format: "radius %g m", r)) }
        return parts.joined(separator: ", ")
    }
}

/// Prints what a write did, and the import's warnings for the row.
private func report(_ outcome: LocationEditor.Outcome) throws {
    print("\(outcome.outcome.rawValue) \(Locations.describe(outcome.location))")
    for w in outcome.warnings { print("warning (\(w.code)): \(w.message.forMessage(limit: nil))") }
}
