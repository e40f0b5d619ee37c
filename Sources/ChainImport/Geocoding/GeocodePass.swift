import Foundation
import LocationStore

/// The geocoding that runs before an import's transaction: one reading of the files finds the addresses the cache
/// cannot answer, the estimate is reported, and (unless it is a dry run) each of them is asked of the service and
/// its answer committed to the cache at once. The import that follows places its rows from the cache alone.
///
/// Doing it first, outside the import's transaction, is what makes a long run safe to interrupt: the store has one
/// writer, and an import holds the write lock for its whole transaction, so answers fetched inside it could only be
/// kept by committing the half-done import. Here a kill loses nothing already fetched, and the re-run asks only the
/// addresses still missing.
package struct GeocodePass {
    let store: any GeocodeCache
    let options: ImportOptions
    let geocoding: GeocodingOptions
    let progress: ((ImportProgress) -> Void)?
    /// Told the estimate once, before any request: a long run must say how long it will take before it starts.
    let notice: ((String) -> Void)?

    package init(
        store: any GeocodeCache, options: ImportOptions, geocoding: GeocodingOptions, progress: ((ImportProgress) -> Void)?,
        notice: ((String) -> Void)?
    ) {
        self.store = store
        self.options = options
        self.geocoding = geocoding
        self.progress = progress
        self.notice = notice
    }

    /// What the pass found and fetched.
    package struct Outcome {
        var resolver: GeocodeResolver
        var uncachedAddresses: Int
        var estimatedSeconds: Double
        /// Why an address could not be answered, by cache key (failures are not cached).
        var failures: [String: String]
        /// The cache keys of the addresses this pass had to ask (every other one came from the cache).
        var askedKeys: Set<String>
        /// The outcome of every address the import needs, by cache key: the import places rows from here without
        /// another look at the cache (nil for an address a dry run did not ask).
        var answers: [String: GeocodeOutcome] = [:]
        /// A dry run: nothing was asked.
        var skippedFetch: Bool
        var requestsSent = 0
    }

    package func run(_ inputs: [ImportInput], attempted: (ImportInput) -> Void) async throws -> Outcome {
        let resolver = GeocodeResolver(store: store, settings: geocoding.settings)
        var pending: [AddressQuery] = []
        var pendingKeys = Set<String>()
        var cached: [String: GeocodeOutcome] = [:]
        /// At most this many requests: a name search that finds the place saves the address search after it.
        var requests = 0
        for input in inputs {
            attempted(input)
            let parser = RowParser(fileName: input.name, options: options)
            for try await event in ParsePipeline.events(parser, chunks: input.chunks) {
                guard case .rows(let rows, _) = event else { continue }
                for row in rows where row.wantsGeocode(geocoding.mode) {
                    guard let query = row.addressQuery else { continue }
                    let key = query.cacheKey
                    if pendingKeys.contains(key) || cached[key] != nil { continue }
                    if let outcome = try await resolver.cachedOutcome(query) {
                        cached[key] = outcome
                        continue
                    }
                    pendingKeys.insert(key)
                    pending.append(query)
                    requests += try await resolver.requestsNeeded(query)
                }
            }
            try Task.checkCancellation()
        }
        let estimate = Double(requests) / max(geocoding.settings.requestsPerSecond, 0.001)
        var outcome = Outcome(
            resolver: resolver, uncachedAddresses: pending.count, estimatedSeconds: estimate, failures: [:],
            askedKeys: pendingKeys, answers: cached, skippedFetch: options.dryRun)
        let plan =
            "\(pending.count) address\(pending.count == 1 ? "" : "es") to geocode at \(geocoding.settings.displayURL), at most "
            + "\(Self.duration(estimate)) at \(Self.rate(geocoding.settings.requestsPerSecond)) request/s"
            + (options.dryRun ? " (dry run: none asked)" : "")
        notice?(plan)
        guard !options.dryRun else { return outcome }
        let started = Date()
        var lastTick = Date.distantPast
        for (i, query) in pending.enumerated() {
            try Task.checkCancellation()
            let answer = try await resolver.resolve(query)
            outcome.answers[query.cacheKey] = answer
            if case .failed(let reason) = answer { outcome.failures[query.cacheKey] = reason }
            if Date().timeIntervalSince(lastTick) >= options.progressInterval || i + 1 == pending.count {
                lastTick = Date()
                announce(done: i + 1, total: pending.count, started: started)
            }
        }
        outcome.requestsSent = await resolver.client.requestsSent
        if geocoding.requireGeocode, !outcome.failures.isEmpty {
            let example = outcome.failures.values.sorted().first ?? ""
            throw ImportError.geocodingFailed(
                failed: outcome.failures.count, of: pending.count, service: geocoding.settings.displayURL,
                example: example)
        }
        return outcome
    }

    /// Geocoding progress in `ImportProgress` terms: addresses as rows, with the fraction and ETA they imply.
    private func announce(done: Int, total: Int, started: Date) {
        guard let progress else { return }
        var p = ImportProgress(
            fileName: "geocoding", fileIndex: 0, fileCount: 1, rows: done, bytes: Int64(done),
            totalBytes: total > 0 ? Int64(total) : nil, elapsedSeconds: Date().timeIntervalSince(started))
        p.unit = "addresses"
        progress(p)
    }

    static func duration(_ seconds: Double) -> String { GeocodingPlan.duration(seconds) }

    static func rate(_ rps: Double) -> String {
        rps == rps.rounded() ? String(Int(rps)) : String(format: "%.2g", rps)
    }
}

/// What the geocoding before an import found and did, for its report.
package struct GeocodingPlan: Sendable, Codable, Equatable {
    package var service: String
    package var mode: String
    /// Addresses the cache could not answer when the import began.
    package var uncachedAddresses: Int
    /// How long asking them takes at the service's rate limit.
    package var estimatedSeconds: Double
    /// Requests sent, retries included (0 in a dry run, which stops at the estimate).
    package var requestsSent: Int
    /// Addresses the service could not answer.
    package var failed: Int
    package var dryRun: Bool

    package init(_ outcome: GeocodePass.Outcome, options: ImportOptions) {
        service = outcome.resolver.source
        mode = options.geocoding?.mode.rawValue ?? ""
        uncachedAddresses = outcome.uncachedAddresses
        estimatedSeconds = outcome.estimatedSeconds
        requestsSent = outcome.requestsSent
        failed = outcome.failures.count
        dryRun = outcome.skippedFetch
    }

    /// A time as people say it: seconds, minutes or hours.
    package static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 120 { return "\(s) s" }
        if s < 7200 { return "\(s / 60) min" }
        return String(format: "%.1f h", seconds / 3600)
    }

    enum CodingKeys: String, CodingKey {
        case service, mode, failed
        case uncachedAddresses = "uncached_addresses"
        case estimatedSeconds = "estimated_seconds"
        case requestsSent = "requests_sent"
        case dryRun = "dry_run"
    }
}

extension GeocodeResolver {
    /// Requests `query` may still cost: one for the name search and one for the address, each unless cached.
    func requestsNeeded(_ query: AddressQuery) async throws -> Int {
        let plain = try await store.cachedGeocode(source: source, key: query.withoutAmenity.cacheKey) == nil ? 1 : 0
        guard query.amenity != nil else { return plain }
        return (try await store.cachedGeocode(source: source, key: query.cacheKey) == nil ? 1 : 0) + plain
    }
}
