import Foundation
import HTTPTypes
import Testing

@testable import RefreshServer

@Suite("openapi.yaml is the contract")
struct ContractTests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() {
        let served = Set(RouteTable.all.map { "\($0.method.rawValue) \($0.path)" })
        #expect(OpenAPIContract.shared.operations == served)
    }

    @Test func documentIsOpenAPI31WithResolvableReferences() throws {
        let root = OpenAPIContract.shared.root
        #expect(root["openapi"]?.string == "3.1.0")
        var refs: [String] = []
        func collect(_ node: YAML) {
            switch node {
            case .map(let pairs): for (key, value) in pairs { if key == "$ref", let r = value.string { refs.append(r) } else { collect(value) } }
            case .list(let items): items.forEach(collect)
            case .scalar: break
            }
        }
        collect(root)
        #expect(refs.count > 20)
        for ref in refs { #expect(OpenAPIContract.shared.resolve(ref) != nil, "unresolved \(ref)") }
    }

    @Test func everyRefusalTheServerCanProduceIsDocumentedForItsRoute() {
        // Statuses each route class can answer, whatever the handler does.
        for route in RouteTable.all {
            let statuses = Set(OpenAPIContract.shared.statuses(method: route.method.rawValue, path: route.path))
            switch route.access {
            case .infrastructure: break
            case .publicAPI: #expect(statuses.contains("429"), "\(route.path) lacks 429")
            case .admin:
                for status in ["401", "403", "404", "429"] { #expect(statuses.contains(status), "\(route.method) \(route.path) lacks \(status)") }
            }
            if route.method == .post || route.method == .put {
                for status in ["400", "413", "415"] { #expect(statuses.contains(status), "\(route.method) \(route.path) lacks \(status)") }
            }
        }
    }

    @Test func validatorRejectsDriftedBodies() {
        let contract = OpenAPIContract.shared
        let good = #"{"status":"ok"}"#
        #expect(contract.check(method: "GET", path: "/healthz", status: 200, contentType: "application/json", body: Data(good.utf8)).isEmpty)
        #expect(
            !contract.check(method: "GET", path: "/healthz", status: 200, contentType: "application/json", body: Data(#"{"status":1}"#.utf8)).isEmpty)
        #expect(
            !contract.check(method: "GET", path: "/healthz", status: 200, contentType: "application/json", body: Data(#"{"status":"ok","x":1}"#.utf8))
                .isEmpty)
        #expect(!contract.check(method: "GET", path: "/healthz", status: 418, contentType: "application/json", body: Data(good.utf8)).isEmpty)
        #expect(!contract.check(method: "GET", path: "/healthz", status: 200, contentType: "text/html", body: Data(good.utf8)).isEmpty)
        let region =
            #"{"regions":[{"id":"a","network_id":"n","lat":1,"lon":2,"radius_meters":100,"priority":1.5,"name":"x"}],"refresh_after_meters":500,"cache_ttl_seconds":21600,"server_time":"2025-11-22T10:30:00Z","coverage_guaranteed":true}"#
        let problems = contract.check(
            method: "POST", path: "/v1/region-refresh", status: 200, contentType: "application/json", body: Data(region.utf8))
        #expect(problems.count == 1 && problems[0].contains("priority"))
    }
}
