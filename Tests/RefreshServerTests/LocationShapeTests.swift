import ChainImport
import Foundation
import Geo
import HTTPTypes
import LocationStore
import SQLiteStore
import Testing

@testable import RefreshServer

/// `LocationField`'s table against oracles written apart from it: a location with every field set, as a body gives it
/// and as the admin API and the export should write it, by hand; and `openapi.yaml`'s schemas. A field added to the
/// table and not to these (or the other way round) fails here, and so does one a projection drops on the way.
@Suite struct LocationShapeTests {
    /// Every field a body sets, under the body's own names.
    static let body = """
        {"network": "costco", "id": "shape-1", "name": "Costco Shape", "address": "1 Shape St", "city": "San Francisco",
         "region": "CA", "postal_code": "94103", "country": "US", "latitude": 37.7749, "longitude": -122.4194,
         "radius_meters": 150, "venue_radius_meters": 400, "opening_hours": "Mo-Fr 09:00-17:00"}
        """

    /// The same location as the admin API answers it (`source_import_id` is whatever the edit's import got).
    static let answer = """
        {"id": "loc_costco_shape-1", "network_id": "costco", "external_id": "shape-1", "name": "Costco Shape",
         "address": "1 Shape St", "city": "San Francisco", "region": "CA", "postal_code": "94103", "country": "US",
         "latitude": 37.7749, "longitude": -122.4194, "radius_meters": 150, "venue_radius_meters": 400,
         "opening_hours": "Mo-Fr 09:00-17:00"}
        """

    /// The same location as the store holds it.
    static let stored = Location(
        networkId: "costco", externalId: "shape-1", name: "Costco Shape", address: "1 Shape St", city: "San Francisco", region: "CA",
        postalCode: "94103", country: "US", coordinate: Coordinate(uncheckedLatitude: 37.7749, longitude: -122.4194), radiusMeters: 150,
        venueRadiusMeters: 400, openingHours: "Mo-Fr 09:00-17:00")

    /// The export's header, as `oncue export --help` documents it.
    static let exportHeader = "id,network,network_name,name,address,city,state,postcode,country,lat,lon,radius_m,venue_radius_m,opening_hours"

    static func object(_ text: String) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(Array(text.utf8)).object)
    }

    @Test("the oracles name every field of the table: a body every writable one, the answer every one")
    func theOraclesCoverTheTable() throws {
        #expect(Set(try Self.object(Self.body).keys) == Set(LocationField.all.filter { !$0.isReadOnly }.map(\.name)))
        #expect(Set(try Self.object(Self.answer).keys).union(["source_import_id"]) == Set(LocationField.all.map(\.answerName)))
    }

    @Test("every field goes from a JSON body into the store and comes back in the admin API's answer")
    func everyFieldRoundTripsThroughTheAdminAPI() async throws {
        let store = try TestStore()
        defer { store.remove() }
        try await withServer(store: store) { client, _ in
            let created = try await client.send(.post, "/admin/locations", route: "/admin/locations", headers: .admin, body: Self.body)
            #expect(created.status == 201, "\(created.text)")
            let shown = try await client.send(
                .get, "/admin/locations/loc_costco_shape-1", route: "/admin/locations/{id}", headers: .admin)
            var answer = try #require(shown.json?.object)
            #expect(answer.removeValue(forKey: "source_import_id")?.int != nil, "\(shown.text)")
            #expect(answer == (try Self.object(Self.answer)))
            // The answer is a body too: under its names (external_id, network_id, the global id) it changes nothing.
            let put = try await client.send(
                .put, "/admin/locations/loc_costco_shape-1", route: "/admin/locations/{id}", headers: .admin, body: shown.text)
            #expect(put.json?["outcome"]?.string == "unchanged", "\(put.text)")
        }
        let location = try #require(try SQLiteLocationStore(path: store.path).location(id: "loc_costco_shape-1"))
        #expect(location.sameContent(as: Self.stored), "\(location)")
    }

    @Test("a body under the other names (network_id, external_id, lat, lon) sets the same fields")
    func aliasesSetTheSameFields() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let aliased = #"{"network_id": "costco", "external_id": "shape-1", "lat": 37.7749, "lon": -122.4194}"#
        let fields = try decoder.decode(LocationBody.self, from: Data(aliased.utf8)).fields
        #expect(fields.network == "costco" && fields.id == "shape-1" && fields.latitude == 37.7749 && fields.longitude == -122.4194)
        let fromLocation = LocationFields(Self.stored)
        #expect(fromLocation.name == "Costco Shape" && fromLocation.venueRadiusMeters == 400 && fromLocation.locationId == nil)
    }

    @Test("every field goes out in the export and back in through an import", arguments: LocationExport.Format.allCases)
    func everyFieldRoundTripsThroughExportAndImport(_ format: LocationExport.Format) async throws {
        let source = try TestStore()
        defer { source.remove() }
        let from = try SQLiteLocationStore(path: source.path)
        _ = try from.upsert([Self.stored])
        var text = ""
        _ = try await LocationExport(format: format, networks: ["costco"]).run(from: from) { text += $0 }
        if format == .csv { #expect(text.hasPrefix(Self.exportHeader + "\n"), "\(text)") }

        let target = try TestStore()
        defer { target.remove() }
        let to = try SQLiteLocationStore(path: target.path)
        let name = format == .csv ? "export.csv" : "export.\(format.rawValue)"
        let report = try await ChainImporter(store: to, options: ImportOptions()).run([.bytes(Array(text.utf8), name: name)])
        #expect(report.committed && report.totals.rejected == 0, "\(report.files.first?.issues ?? [])")
        let back = try #require(try to.location(id: "loc_costco_shape-1"))
        #expect(back.sameContent(as: Self.stored), "\(back)")
    }

    /// A schema's properties in `openapi.yaml`, each with its `maxLength` (nil where it has none).
    static func properties(_ schema: String) throws -> [String: Int?] {
        let resolved = try #require(OpenAPIContract.shared.resolve("#/components/schemas/\(schema)"))
        guard case .map(let pairs) = try #require(resolved["properties"]) else { return [:] }
        return Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, $0.1["maxLength"]?.string.flatMap { Int($0) }) })
    }

    @Test("openapi.yaml's AdminLocation has the table's answered names, LocationInput its body members and their limits")
    func theDocumentHasTheTablesNames() throws {
        #expect(Set(try Self.properties("AdminLocation").keys) == Set(LocationField.all.map(\.answerName)))
        let input = try Self.properties("LocationInput")
        #expect(Set(input.keys) == Set(LocationMember.allCases.map(\.name)))
        for field in LocationField.all where !field.isReadOnly {
            for member in [field.name] + field.aliases {
                #expect(input[member] == .some(field.limit), "\(member): the document says \(String(describing: input[member]))")
            }
        }
    }

    @Test("no two fields share a name, an answered name, a column or an export column; a body's names are one field's each")
    func noTwoFieldsShareAName() {
        let all = LocationField.all
        for names in [all.map(\.name), all.map(\.answerName), all.compactMap(\.column), all.compactMap(\.exportColumn) + ["network_name"]] {
            #expect(names.count == Set(names).count, "\(names)")
        }
        // A body's `id` is the one name two fields share, and `external_id` beside it says which (LocationBody).
        let members = all.flatMap { $0.isReadOnly ? [$0.answerName] : [$0.name] + $0.aliases }
        let shared = Dictionary(grouping: members, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(Array(shared) == ["id"])
    }
}
