import LocationStore
import NIOCore
import RegionRefresh
import Synchronization

/// The `GET /v1/networks` listing, built once per index rebuild rather than once per request: every network's JSON
/// object encoded, in id order, with the text a search matches. A page is the objects after a cursor (the last id of
/// the page before), at most `limit` of them, optionally only those whose id, name, category or an alias contains the
/// search; a store of a million networks is never sent whole.
final class NetworkCatalog: Sendable {
    struct Entry: Sendable {
        var id: String
        /// Id, name, category and aliases, lower-cased, joined by newlines (a search never spans two).
        var searchText: String
        var json: ByteBuffer
    }

    /// What a request asks for.
    struct Page: Sendable {
        static let defaultLimit = 1_000
        static let maxLimit = 10_000
        var limit = defaultLimit
        var cursor: String?
        var search: String?
    }

    private let state = Mutex<(entries: [Entry], firstPage: ByteBuffer)?>(nil)

    func update(_ networks: [NetworkSummary]) {
        let entries = networks.sorted(by: { $0.network.id < $1.network.id }).map(Self.entry)
        let first = Self.body(entries.prefix(Page.defaultLimit), more: entries.count > Page.defaultLimit)
        state.withLock { $0 = (entries, first) }
    }

    /// The page's JSON body, nil before the first load.
    func page(_ page: Page) -> ByteBuffer? {
        state.withLock { current -> ByteBuffer? in
            guard let current else { return nil }
            // Most requests ask for the first page as it is: it was encoded with the catalog.
            if page.cursor == nil, page.search == nil, page.limit == Page.defaultLimit { return current.firstPage }
            let entries = current.entries
            var start = 0
            if let cursor = page.cursor {
                // The first id after the cursor (binary search: entries are in id order).
                var lo = 0
                var hi = entries.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if entries[mid].id <= cursor { lo = mid + 1 } else { hi = mid }
                }
                start = lo
            }
            let needle = page.search?.lowercased()
            var chosen: [Entry] = []
            var more = false
            for entry in entries[start...] where needle.map({ entry.searchText.contains($0) }) ?? true {
                if chosen.count == page.limit {
                    more = true
                    break
                }
                chosen.append(entry)
            }
            return Self.body(chosen[...], more: more)
        }
    }

    private static func body(_ entries: ArraySlice<Entry>, more: Bool) -> ByteBuffer {
        var out = ByteBuffer()
        out.reserveCapacity(64 + entries.reduce(0) { $0 + $1.json.readableBytes + 1 })
        out.writeStaticString("{\"networks\":[")
        for (i, entry) in entries.enumerated() {
            if i > 0 { out.writeStaticString(",") }
            out.writeImmutableBuffer(entry.json)
        }
        out.writeStaticString("]")
        if more, let last = entries.last {
            out.writeStaticString(",\"next_cursor\":")
            var cursor = JSONWriter(capacity: 64)
            cursor.string(last.id)
            out.writeImmutableBuffer(cursor.buffer)
        }
        out.writeStaticString("}")
        return out
    }

    private static func entry(_ summary: NetworkSummary) -> Entry {
        var w = JSONWriter(capacity: 160)
        w.beginObject()
        w.key("id")
        w.string(summary.network.id)
        w.key("name")
        w.string(summary.network.name)
        w.key("category")
        w.string(summary.network.category)
        w.key("is_large_area")
        w.bool(summary.network.isLargeArea)
        w.key("default_radius_meters")
        if let radius = summary.network.defaultRadiusMeters { w.number(radius) } else { w.null() }
        w.key("wikidata")
        w.string(summary.network.wikidata)
        w.key("location_count")
        w.int(summary.locationCount)
        w.key("aliases")
        w.beginArray()
        for alias in summary.aliases.sorted() { w.string(alias) }
        w.endArray()
        w.endObject()
        let search = ([summary.network.id, summary.network.name, summary.network.category ?? "", summary.network.wikidata ?? ""] + summary.aliases)
            .map { $0.lowercased() }.joined(separator: "\n")
        return Entry(id: summary.network.id, searchText: search, json: w.buffer)
    }
}
