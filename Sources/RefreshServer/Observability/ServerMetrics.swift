import Foundation
import HTTPTypes
import RegionRefresh
import Synchronization

/// The server's counters, kept in memory and rendered as Prometheus text by `/metrics`.
///
/// Each route has its own mutex (one short critical section per request), so requests to
/// different routes never contend and the hot route pays about as much as an atomic increment.
package final class ServerMetrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets: fine below 5 ms, where the
    /// region-refresh target lies, coarse above.
    static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct RouteState {
        var statusCounts: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServerMetrics.latencyBounds.count)
        var count = 0
        var sum = 0.0
    }

    final class RouteMetrics: Sendable {
        let method: String
        let path: String
        let state = Mutex(RouteState())
        init(method: String, path: String) {
            self.method = method
            self.path = path
        }
    }

    struct IndexState {
        var info: LocationIndex.Info?
        /// The store version the serving index was built from (PostGIS), and whether the store answered last time.
        var storeVersion: Int64?
        var storeUp = true
        var reloads: [String: Int] = [:]
        var imports: [String: Int] = [:]
        var importedRows: Int = 0
    }

    private let routes: [String: RouteMetrics]
    private let unmatched = RouteMetrics(method: "", path: "unmatched")
    private let index = Mutex(IndexState())
    private let limited = Atomic<Int>(0)
    private let unknownCardNetworks = Atomic<Int>(0)
    private let openConnections = Atomic<Int>(0)
    private let refusedForAddress = Atomic<Int>(0)
    private let evicted = Atomic<Int>(0)
    /// Connections closed at a deadline, by phase: rare, so one lock is plenty.
    private let timedOut = Mutex<[ConnectionDeadlineHandler.Phase: Int]>([:])

    /// Reads the index's age.
    private let clock: ServerClock

    package init(clock: ServerClock) {
        self.clock = clock
        var routes: [String: RouteMetrics] = [:]
        for route in RouteTable.all {
            routes[Self.key(method: route.method.rawValue, path: route.path)] = RouteMetrics(method: route.method.rawValue, path: route.path)
        }
        self.routes = routes
    }

    private static func key(method: String, path: String) -> String { method + " " + path }

    /// Records one answered request. `path` is the route template (never the concrete path, whose
    /// ids would make the label set unbounded); nil when no route matched.
    func record(method: String, path: String?, status: Int, seconds: Double) {
        let route = path.flatMap { routes[Self.key(method: method, path: $0)] } ?? unmatched
        let bucket = Self.latencyBounds.firstIndex { seconds <= $0 }
        route.state.withLock { state in
            state.statusCounts[status, default: 0] += 1
            if let bucket { state.buckets[bucket] += 1 }
            state.count += 1
            state.sum += seconds
        }
    }

    func rateLimited() { limited.add(1, ordering: .relaxed) }

    /// Card networks a region-refresh request named that no network matches.
    func unknownCardNetworks(_ count: Int) { unknownCardNetworks.add(count, ordering: .relaxed) }

    func connectionOpened() { openConnections.add(1, ordering: .relaxed) }
    func connectionRefusedForAddress() { refusedForAddress.add(1, ordering: .relaxed) }
    /// An idle connection closed to make room for a new one (`ConnectionRoster`).
    func connectionEvicted() { evicted.add(1, ordering: .relaxed) }
    var connectionsEvicted: Int { evicted.load(ordering: .relaxed) }
    var connectionsRefusedForAddress: Int { refusedForAddress.load(ordering: .relaxed) }
    func connectionClosed() { openConnections.subtract(1, ordering: .relaxed) }
    var connectionsOpen: Int { openConnections.load(ordering: .relaxed) }

    func connectionTimedOut(_ phase: ConnectionDeadlineHandler.Phase) { timedOut.withLock { $0[phase, default: 0] += 1 } }

    func timeouts(_ phase: ConnectionDeadlineHandler.Phase) -> Int { timedOut.withLock { $0[phase] ?? 0 } }

    func indexLoaded(_ info: LocationIndex.Info, storeVersion: Int64? = nil) {
        index.withLock {
            $0.info = info
            $0.storeVersion = storeVersion
            $0.storeUp = true
            $0.reloads["success", default: 0] += 1
        }
    }

    func storeReachable(_ up: Bool) { index.withLock { $0.storeUp = up } }

    func indexLoadFailed() { index.withLock { $0.reloads["failure", default: 0] += 1 } }

    /// Counts a finished import by its status (committed, dry-run, failed, …) and its rows read.
    func importFinished(status: String, rowsRead: Int) {
        index.withLock {
            $0.imports[status, default: 0] += 1
            $0.importedRows += rowsRead
        }
    }

    /// The Prometheus text exposition format, version 0.0.4.
    package func prometheusText() -> String {
        var out = PrometheusText()
        out.header("oncue_http_requests_total", "HTTP requests answered, by route template, method and status.", type: "counter")
        let all = routes.values.sorted { ($0.path, $0.method) < ($1.path, $1.method) } + [unmatched]
        let snapshots = all.map { ($0, $0.state.withLock { $0 }) }
        for (route, state) in snapshots {
            for (status, count) in state.statusCounts.sorted(by: { $0.key < $1.key }) {
                out.sample("oncue_http_requests_total", ["route": route.path, "method": route.method, "status": String(status)], Double(count))
            }
        }
        out.header("oncue_http_request_duration_seconds", "Time from request head to response head, by route.", type: "histogram")
        for (route, state) in snapshots where state.count > 0 {
            var cumulative = 0
            for (i, bound) in Self.latencyBounds.enumerated() {
                cumulative += state.buckets[i]
                out.sample(
                    "oncue_http_request_duration_seconds_bucket", ["route": route.path, "method": route.method, "le": PrometheusText.format(bound)],
                    Double(cumulative))
            }
            out.sample(
                "oncue_http_request_duration_seconds_bucket", ["route": route.path, "method": route.method, "le": "+Inf"], Double(state.count))
            out.sample("oncue_http_request_duration_seconds_sum", ["route": route.path, "method": route.method], state.sum)
            out.sample("oncue_http_request_duration_seconds_count", ["route": route.path, "method": route.method], Double(state.count))
        }
        out.header("oncue_rate_limited_total", "Requests refused with 429.", type: "counter")
        out.sample("oncue_rate_limited_total", [:], Double(limited.load(ordering: .relaxed)))
        out.header(
            "oncue_unknown_card_networks_total", "user_networks entries that named no network (answered in unknown_networks).", type: "counter")
        out.sample("oncue_unknown_card_networks_total", [:], Double(unknownCardNetworks.load(ordering: .relaxed)))
        writeConnections(to: &out)

        let state = index.withLock { $0 }
        out.header("oncue_index_ready", "1 once a location index is serving.", type: "gauge")
        out.sample("oncue_index_ready", [:], state.info == nil ? 0 : 1)
        if let info = state.info {
            out.header("oncue_index_locations", "Locations in the serving index.", type: "gauge")
            out.sample("oncue_index_locations", [:], Double(info.locationCount))
            out.header("oncue_index_networks", "Networks in the serving index.", type: "gauge")
            out.sample("oncue_index_networks", [:], Double(info.networkCount))
            out.header("oncue_index_build_seconds", "Time the serving index took to build.", type: "gauge")
            out.sample("oncue_index_build_seconds", [:], info.buildSeconds)
            out.header("oncue_index_built_timestamp_seconds", "Unix time the serving index was built.", type: "gauge")
            out.sample("oncue_index_built_timestamp_seconds", [:], info.builtAt.timeIntervalSince1970)
            out.header("oncue_index_bytes", "Approximate memory of the serving index.", type: "gauge")
            out.sample("oncue_index_bytes", [:], Double(info.approximateBytes))
            out.header("oncue_index_age_seconds", "Seconds since the serving index was built.", type: "gauge")
            out.sample("oncue_index_age_seconds", [:], clock.now().timeIntervalSince(info.builtAt))
        }
        if let version = state.storeVersion {
            out.header(
                "oncue_index_store_version",
                "The store version the serving index answers (PostGIS's announced version; a SQLite file's change version).", type: "gauge")
            out.sample("oncue_index_store_version", [:], Double(version))
        }
        out.header("oncue_store_up", "1 when the store answered the last check; 0 while the last index keeps serving without it.", type: "gauge")
        out.sample("oncue_store_up", [:], state.storeUp ? 1 : 0)
        out.header("oncue_index_reloads_total", "Index rebuilds, by result.", type: "counter")
        for result in ["success", "failure"] {
            out.sample("oncue_index_reloads_total", ["result": result], Double(state.reloads[result] ?? 0))
        }
        out.header("oncue_imports_total", "Imports through the admin API, by final status.", type: "counter")
        for (status, count) in state.imports.sorted(by: { $0.key < $1.key }) {
            out.sample("oncue_imports_total", ["status": status], Double(count))
        }
        out.header("oncue_import_rows_read_total", "CSV rows read by imports through the admin API.", type: "counter")
        out.sample("oncue_import_rows_read_total", [:], Double(state.importedRows))
        return out.text
    }

    /// The connections' part of `prometheusText`.
    private func writeConnections(to out: inout PrometheusText) {
        out.header("oncue_connections_open", "HTTP connections open now.", type: "gauge")
        out.sample("oncue_connections_open", [:], Double(connectionsOpen))
        out.header(
            "oncue_connections_timed_out_total",
            "Connections closed because the client was too slow (head, body, idle) or still open at the shutdown deadline.",
            type: "counter")
        for phase in ConnectionDeadlineHandler.Phase.allCases {
            out.sample("oncue_connections_timed_out_total", ["phase": phase.rawValue], Double(timeouts(phase)))
        }
        out.header(
            "oncue_connections_refused_total",
            "Connections closed as they were accepted: their address held its share (--max-connections-per-address).", type: "counter")
        out.sample("oncue_connections_refused_total", ["reason": "per_address"], Double(connectionsRefusedForAddress))
        out.header(
            "oncue_connections_evicted_total",
            "Idle keep-alive connections closed to make room for new ones near --max-connections.", type: "counter")
        out.sample("oncue_connections_evicted_total", [:], Double(connectionsEvicted))
    }
}
