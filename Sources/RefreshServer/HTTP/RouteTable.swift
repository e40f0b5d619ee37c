import Hummingbird
import LocationStore

/// Every route the server answers, in OpenAPI path syntax. Routes are registered from this table,
/// the 405 logic and the metrics labels use it, and a test compares it with `openapi.yaml`.
package struct RouteSpec: Sendable, Hashable {
    package enum Access: Sendable, Hashable {
        /// Probes and metrics: never rate limited, so that a throttled client cannot blind monitoring.
        case infrastructure
        /// `/v1/*` and the document: rate limited per client.
        case publicAPI
        /// `/admin/*`: bearer token, and rate limited (slows down token guessing).
        case admin
    }

    package var method: HTTPRequest.Method
    /// OpenAPI template, e.g. `/admin/imports/{id}`.
    package var path: String
    package var access: Access
    /// The least role of admin key an admin route needs (nil elsewhere).
    package var role: AdminRole?

    init(method: HTTPRequest.Method, path: String, access: Access, role: AdminRole? = nil) {
        self.method = method
        self.path = path
        self.access = access
        self.role = role
    }

    /// The same path in Hummingbird's router syntax (`/admin/imports/:id`).
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }
}

package enum RouteTable {
    package static let healthz = RouteSpec(method: .get, path: "/healthz", access: .infrastructure)
    package static let readyz = RouteSpec(method: .get, path: "/readyz", access: .infrastructure)
    package static let healthzHead = RouteSpec(method: .head, path: "/healthz", access: .infrastructure)
    package static let readyzHead = RouteSpec(method: .head, path: "/readyz", access: .infrastructure)
    package static let metrics = RouteSpec(method: .get, path: "/metrics", access: .infrastructure)
    package static let openapi = RouteSpec(method: .get, path: "/openapi.yaml", access: .publicAPI)
    package static let regionRefresh = RouteSpec(method: .post, path: "/v1/region-refresh", access: .publicAPI)
    package static let networks = RouteSpec(method: .get, path: "/v1/networks", access: .publicAPI)
    package static let locations = RouteSpec(method: .get, path: "/v1/locations", access: .publicAPI)
    package static let console = RouteSpec(method: .get, path: "/console/", access: .publicAPI)
    package static let consoleFile = RouteSpec(method: .get, path: "/console/{file}", access: .publicAPI)
    package static let createImport = RouteSpec(method: .post, path: "/admin/imports", access: .admin, role: .`import`)
    package static let listImports = RouteSpec(method: .get, path: "/admin/imports", access: .admin, role: .read)
    package static let showImport = RouteSpec(method: .get, path: "/admin/imports/{id}", access: .admin, role: .read)
    package static let putNetwork = RouteSpec(method: .put, path: "/admin/networks/{id}", access: .admin, role: .admin)
    package static let patchNetwork = RouteSpec(method: .patch, path: "/admin/networks/{id}", access: .admin, role: .admin)
    package static let deleteNetwork = RouteSpec(method: .delete, path: "/admin/networks/{id}", access: .admin, role: .admin)
    package static let addAlias = RouteSpec(method: .post, path: "/admin/networks/{id}/aliases", access: .admin, role: .admin)
    package static let mergeNetwork = RouteSpec(method: .post, path: "/admin/networks/{id}/merge", access: .admin, role: .admin)
    package static let showJob = RouteSpec(method: .get, path: "/admin/jobs/{id}", access: .admin, role: .read)
    package static let createLocation = RouteSpec(method: .post, path: "/admin/locations", access: .admin, role: .`import`)
    package static let showLocation = RouteSpec(method: .get, path: "/admin/locations/{id}", access: .admin, role: .read)
    package static let putLocation = RouteSpec(method: .put, path: "/admin/locations/{id}", access: .admin, role: .`import`)
    package static let patchLocation = RouteSpec(method: .patch, path: "/admin/locations/{id}", access: .admin, role: .`import`)
    package static let deleteLocation = RouteSpec(method: .delete, path: "/admin/locations/{id}", access: .admin, role: .`import`)
    package static let listKeys = RouteSpec(method: .get, path: "/admin/keys", access: .admin, role: .admin)
    package static let createKey = RouteSpec(method: .post, path: "/admin/keys", access: .admin, role: .admin)
    package static let revokeKey = RouteSpec(method: .delete, path: "/admin/keys/{id}", access: .admin, role: .admin)
    package static let listAudit = RouteSpec(method: .get, path: "/admin/audit", access: .admin, role: .admin)
    package static let whoami = RouteSpec(method: .get, path: "/admin/whoami", access: .admin, role: .read)

    package static let all: [RouteSpec] = [
        healthz, healthzHead, readyz, readyzHead, metrics, openapi, regionRefresh, networks, locations, console, consoleFile, createImport,
        listImports,
        showImport, putNetwork, patchNetwork, deleteNetwork, addAlias, mergeNetwork, showJob, createLocation, showLocation, putLocation,
        patchLocation, deleteLocation, listKeys, createKey, revokeKey, listAudit, whoami,
    ]

    /// The methods allowed on a concrete path, empty when no route has that path (404 rather than 405).
    static func allowedMethods(for path: Substring) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return all.filter { route in
            let template = route.path.split(separator: "/", omittingEmptySubsequences: false)
            guard template.count == segments.count else { return false }
            return zip(template, segments).allSatisfy { t, s in
                (t.hasPrefix("{") && !s.isEmpty) || t == s
            }
        }.map(\.method)
    }
}

extension RouteTable {
    /// Every route in words, grouped as they are guarded, for `oncue serve --help`: written from the table, so the help
    /// names each route the server registers and no other. A path's methods are joined (`GET|HEAD /healthz`).
    package static var helpSummary: String {
        func listed(_ include: (RouteSpec) -> Bool) -> String {
            var paths: [String] = []
            var methods: [String: [String]] = [:]
            for route in all where include(route) {
                if methods[route.path] == nil { paths.append(route.path) }
                methods[route.path, default: []].append(route.method.rawValue)
            }
            return paths.map { "\(methods[$0]!.joined(separator: "|")) \($0)" }.joined(separator: ", ")
        }
        let admin = AdminRole.allCases.map { role in "\(role.rawValue): \(listed { $0.access == .admin && $0.role == role })" }
        return "Routes: the API \(listed { $0.access == .publicAPI }); probes and metrics (never rate limited) "
            + "\(listed { $0.access == .infrastructure }); with an admin key of at least role \(admin.joined(separator: "; "))."
    }
}
