import Foundation

/// How both stores keep the import log's structured fields (options and summaries as sorted-key JSON text) and which
/// locations they accept: one rule, so a record reads back the same from either store.
package enum RecordCodec {
    package static func encodeOptions(_ options: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(options)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    package static func decodeOptions(_ text: String) -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }

    /// A summary kept as JSON text (nil stays NULL).
    package static func encodeJSON<T: Encodable>(_ value: T?) -> String? {
        guard let value else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    package static func decodeJSON<T: Decodable>(_ text: String?) -> T? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// What a store refuses to keep: no id, no network, a radius that is not a positive number.
    package static func validate(_ l: Location) throws(StoreError) {
        guard !l.id.isEmpty else { throw .invalidArgument("a location needs a non-empty id") }
        guard !l.networkId.isEmpty else { throw .invalidArgument("location \(l.id) has no network") }
        for (name, value) in [("radius", l.radiusMeters), ("venue radius", l.venueRadiusMeters)] {
            if let v = value, !(v > 0 && v.isFinite) { throw .invalidArgument("location \(l.id): \(name) must be positive, got \(v)") }
        }
        if let u = l.positionUncertaintyMeters, !(u >= 0 && u.isFinite) {
            throw .invalidArgument("location \(l.id): position uncertainty must be 0 or more metres, got \(u)")
        }
    }
}
