import Foundation
import LocationStore

/// One-location edits — add, replace, change some fields of, or delete one store — for the admin API and
/// `oncue locations`. A write is a one-row import into the location's network: the same validation and reason codes
/// as a file's row, an entry in the import log, and a change version every replica follows. Nothing else of the
/// network is touched (no row is removed as a `--replace` import would).
package struct LocationEditor {
    package let store: any LocationStore

    package init(store: any LocationStore) { self.store = store }

    /// Why an edit was refused.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// The body names no network, or one the store does not know.
        case unknownNetwork(String)
        case missingNetwork
        /// No location has this id.
        case notFound(String)
        /// `add` of an id that exists.
        case exists(String)
        /// The body's network or id contradicts the location the path names.
        case conflict(String)
        /// The import's checks refused the row: its reason code and message.
        case rejected(code: String, message: String)

        package var description: String {
            switch self {
            case .unknownNetwork(let n): "no network '\(n)' (an edit never creates one: import a file, or name an existing network or alias)"
            case .missingNetwork: "a location needs its network ('network')"
            case .notFound(let id): "no location '\(id)'"
            case .exists(let id): "location '\(id)' exists already"
            case .conflict(let message): message
            case .rejected(_, let message): message
            }
        }
    }

    /// What a write did.
    package struct Outcome: Sendable {
        package var location: Location
        package var outcome: UpsertOutcome
        /// The import that wrote it (its log holds the row's warnings).
        package var importId: Int64?
        /// Warnings the import's checks gave the row (a coarse point, a hint), as `code: message`.
        package var warnings: [ImportIssue]
    }

    /// Adds a new location; refused when its id — the one given, trimmed as an import trims it, or the one an import
    /// would derive — exists.
    package func add(_ fields: LocationFields) async throws -> Outcome {
        let network = try await resolveNetwork(fields.network)
        var given = fields
        given.id = fields.id.flatMap(RowFields.clean)
        let id = Location.makeId(networkId: network, externalId: given.id ?? derivedId(given))
        if let globalId = fields.locationId, globalId != id {
            throw Failure.conflict("'id' '\(globalId)' is not the id the location would have ('\(id)', from its network and 'external_id')")
        }
        if fields.sourceImportId != nil { throw Failure.conflict("'source_import_id' is set by the import that writes a location") }
        if try await store.location(id: id) != nil { throw Failure.exists(id) }
        return try await write(given, network: network)
    }

    /// Replaces the location `id` with `fields` (every field not given is cleared); its network and id stay.
    package func replace(_ id: String, with fields: LocationFields) async throws -> Outcome {
        let existing = try await existing(id)
        try await checkSameLocation(existing, fields)
        var replacement = fields
        replacement.id = existing.externalId
        return try await keepingUncertainty(of: existing, try await write(replacement, network: existing.networkId))
    }

    /// Changes the fields `patch` sets (`change` applies them to the stored ones); its network and id stay.
    package func update(_ id: String, change: (inout LocationFields) -> Void) async throws -> Outcome {
        let existing = try await existing(id)
        var fields = LocationFields(existing)
        change(&fields)
        try await checkSameLocation(existing, fields)
        fields.id = existing.externalId
        return try await keepingUncertainty(of: existing, try await write(fields, network: existing.networkId))
    }

    /// A point an edit did not move keeps the uncertainty its import measured (a file's grid, a geocoder's box): a
    /// one-row file has neither, and an edit of the opening hours must not resize the region.
    private func keepingUncertainty(of existing: Location, _ outcome: Outcome) async throws -> Outcome {
        guard outcome.location.coordinate == existing.coordinate,
            outcome.location.positionUncertaintyMeters != existing.positionUncertaintyMeters
        else { return outcome }
        var kept = outcome
        kept.location.positionUncertaintyMeters = existing.positionUncertaintyMeters
        _ = try await store.upsert([kept.location])
        return kept
    }

    /// Deletes the location `id`; refused when there is none.
    package func delete(_ id: String) async throws {
        guard try await store.deleteLocations(ids: [try await existing(id).id]) > 0 else { throw Failure.notFound(id) }
    }

    /// The location `id` names: its own, or an old id of a re-keyed or merged network (`location(resolving:)`).
    private func existing(_ id: String) async throws -> Location {
        guard let location = try await store.location(resolving: id) else { throw Failure.notFound(id) }
        return location
    }

    private func resolveNetwork(_ name: String?) async throws -> String {
        guard let name = name?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { throw Failure.missingNetwork }
        // An id, alias or spelling the store knows, or any spelling of an id ("Costco" is costco), as an import reads it.
        if let id = try await store.resolveNetwork(name) { return id }
        let slug = Network.slug(name)
        guard !slug.isEmpty, try await store.network(id: slug) != nil else { throw Failure.unknownNetwork(name) }
        return slug
    }

    /// A body may repeat the location's network and id, not change them: that is a new location and a delete.
    private func checkSameLocation(_ existing: Location, _ fields: LocationFields) async throws {
        if let network = fields.network, (try? await resolveNetwork(network)) != existing.networkId {
            throw Failure.conflict(
                "location '\(existing.id)' belongs to network '\(existing.networkId)'; to move it, add it to the other network and delete this one")
        }
        if let id = fields.id.flatMap(RowFields.clean), id != existing.externalId {
            throw Failure.conflict("location '\(existing.id)' has the id '\(existing.externalId)' in its network; an edit cannot change it")
        }
        if let globalId = fields.locationId, globalId != existing.id {
            throw Failure.conflict("'id' is the location's global id, '\(existing.id)', which an edit cannot change (the body says '\(globalId)')")
        }
        if let imported = fields.sourceImportId, imported != existing.sourceImportId {
            throw Failure.conflict(
                "'source_import_id' is \(existing.sourceImportId.map(String.init) ?? "null") (set by the import that wrote the location); the body says \(imported)"
            )
        }
    }

    private func write(_ fields: LocationFields, network: String) async throws -> Outcome {
        var options = ImportOptions()
        options.network = network
        options.onlyKnownNetworks = true
        options.usesBrandCatalogue = false
        let importer = try ChainImporter(for: store, options: options)
        let report = try await importer.run([ImportInput.bytes(fields.csv, name: "one location (admin edit)")])
        let file = report.files.first
        let issues = file?.issues ?? []
        if report.totals.rejected > 0 || !report.committed {
            let issue = issues.first { $0.severity == .rejected }
            throw Failure.rejected(code: issue?.code ?? "rejected", message: issue?.message ?? "the row was refused")
        }
        let id = Location.makeId(networkId: network, externalId: fields.id ?? derivedId(fields))
        guard let location = try await store.location(id: id) else { throw Failure.notFound(id) }
        let outcome: UpsertOutcome = report.totals.inserted > 0 ? .inserted : report.totals.updated > 0 ? .updated : .unchanged
        return Outcome(
            location: location, outcome: outcome, importId: file?.importId, warnings: issues.filter { $0.severity == .warning })
    }

    /// The id an import derives for a row without one (`StableId`).
    private func derivedId(_ f: LocationFields) -> String {
        let address = f.address.flatMap(RowFields.clean)
        if let lat = f.latitude, let lon = f.longitude { return StableId.derive(address: address, latitude: lat, longitude: lon) }
        return StableId.derive(address: address, city: f.city.flatMap(RowFields.clean), postalCode: f.postalCode.flatMap(RowFields.clean))
    }
}
