import ArgumentParser
import ChainImport
import Foundation

/// The geocoding flags of `oncue import`: the import options of the table's geocoding section.
enum GeocodingFlags: FlagTable {
    static var options: [any DeclaredOption] { ImportOptionTable.all.filter { $0.declaration.section == ImportOptionTable.geocodingSection } }
}

extension DeclaredFlags where Table == GeocodingFlags {
    /// The geocoding options, or nil when no geocoder is named (flag or environment): on the command line the geocoder
    /// is a URL.
    func options(_ request: GeocodingRequest, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> GeocodingOptions? {
        let named = request.geocoder ?? environment[ImportOptionTable.geocoderVariable].flatMap { $0.isEmpty ? nil : $0 }
        var url: URL?
        if let named {
            guard let parsed = GeocoderSettings.baseURL(named) else {
                throw ValidationError("the geocoder must be an http:// or https:// URL with a host")
            }
            url = parsed
        } else if request.mode != nil || request.requireGeocode {
            throw ValidationError("--geocode and --require-geocode need --geocoder URL (or \(ImportOptionTable.geocoderVariable))")
        }
        do { return try request.options(url: url) } catch { throw error.usageError }
    }
}
