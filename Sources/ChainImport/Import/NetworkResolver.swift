import Foundation
import LocationStore

/// Turns the network value of a row (an id, a brand spelling, a library system key) into a
/// network id, creating networks on first sight unless only known ones are allowed.
///
/// A spelling resolves through the store's aliases, which ignore case, spaces and punctuation
/// ("SONIC Drive In" = "Sonic Drive-In"); a new network is created under the spelling's slug and
/// the spelling becomes its alias. Spellings that differ in words ("Sonic") need an explicit
/// alias (`oncue networks alias sonic-drive-in Sonic`).
package final class NetworkResolver {
    private let store: any NetworkDirectory
    private let category: String?
    private let onlyKnown: Bool
    private var cache: [String: String] = [:]
    package private(set) var created: [String] = []
    /// Networks created here whose name came from a row that was not the preferred naming row.
    private var provisionallyNamed = Set<String>()

    enum Failure: Error {
        case missing
        case unknown(String)
        /// A new network's id (the value's slug) would be longer than the store keeps.
        case idTooLong(slug: String)
        /// The value would create a network that could pass for another (see `NetworkText`).
        case confusable(String)
    }

    package init(store: any NetworkDirectory, category: String?, onlyKnown: Bool) {
        self.store = store
        self.category = category
        self.onlyKnown = onlyKnown
    }

    func resolve(_ value: String, displayName: @autoclosure () -> String?) throws -> Result<String, Failure> {
        if let hit = cache[value] { return .success(hit) }
        let trimmed = String(value.trimmedOfWhitespace)
        guard !trimmed.isEmpty else { return .failure(.missing) }
        if let id = try store.resolveNetwork(trimmed) {
            cache[value] = id
            return .success(id)
        }
        // Only an alias can name a network by a spelling without letters or digits ("★"): a new one needs a slug.
        let slug = Network.slug(trimmed)
        guard !slug.isEmpty else { return .failure(.missing) }
        if try store.network(id: slug) == nil {
            if onlyKnown { return .failure(.unknown(trimmed)) }
            if FieldLimits.exceeds(slug, FieldLimits.networkId) { return .failure(.idTooLong(slug: slug)) }
            if let existing = try lookAlike(of: slug) {
                return .failure(
                    .confusable(
                        "'\(trimmed.clipped())' would be network '\(slug)', which looks like the existing '\(existing)'; "
                            + "if it means that one, make it an alias: oncue networks alias \(existing) '\(trimmed.clipped())'"))
            }
            if let problem = NetworkText.problem(trimmed) { return .failure(.confusable("'\(trimmed.clipped())' \(problem)")) }
            let name = displayName().flatMap { $0.isEmpty ? nil : $0 } ?? trimmed
            try store.upsertNetwork(Network(id: slug, name: name, category: category))
            created.append(slug)
            provisionallyNamed.insert(slug)
            skeletons?[NetworkText.skeleton(slug)] = slug
        }
        try store.addAlias(trimmed, networkId: slug)
        cache[value] = slug
        return .success(slug)
    }

    /// Skeletons of the networks' ids, read at the first new network (most imports create none or few).
    private var skeletons: [String: String]?

    private func lookAlike(of slug: String) throws -> String? {
        if skeletons == nil {
            var map: [String: String] = [:]
            for id in try store.networkIds() { map[NetworkText.skeleton(id)] = id }
            skeletons = map
        }
        return skeletons?[NetworkText.skeleton(slug)].flatMap { $0 == slug ? nil : $0 }
    }

    /// Renames a network this import created, once, from the row preferred for naming it.
    func rename(_ id: String, to name: String) throws {
        guard provisionallyNamed.remove(id) != nil, var network = try store.network(id: id), network.name != name else { return }
        network.name = name
        try store.upsertNetwork(network)
    }
}
