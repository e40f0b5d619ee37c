import LocationStore
import NIOCore
import RegionRefresh
import Synchronization

/// The `GET /v1/networks` body, encoded once per index rebuild rather than once per request.
final class NetworkCatalog: Sendable {
    private let body = Mutex<ByteBuffer?>(nil)

    /// The encoded list, nil until the first load.
    var encoded: ByteBuffer? { body.withLock { $0 } }

    func update(_ networks: [NetworkSummary]) {
        var w = JSONWriter(capacity: 64 + networks.count * 128)
        w.beginObject()
        w.key("networks")
        w.beginArray()
        for summary in networks.sorted(by: { $0.network.id < $1.network.id }) {
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
            w.key("location_count")
            w.int(summary.locationCount)
            w.key("aliases")
            w.beginArray()
            for alias in summary.aliases.sorted() { w.string(alias) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        let buffer = w.buffer
        body.withLock { $0 = buffer }
    }
}
