import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import Testing

/// `--network` with `--network-column`: the column names each row's network, `--network` takes the rows whose column
/// is empty.
@Suite("Network column with a fallback network")
struct NetworkFallbackTests {
    static let text = """
        id,brand,lat,lon
        1,Foo Mart,40.112345,-74.112345
        2,,40.212345,-74.212345
        3,  ,40.312345,-74.312345
        4,Bar Shop,40.412345,-74.412345

        """

    @Test func rowsWithAnEmptyColumnGoToTheFallback() async throws {
        let t = try TempStore()
        let report = try await t.importText(Self.text, ImportOptions(network: "acme", networkColumn: "brand"))
        #expect(report.totals == ImportCounts(read: 4, inserted: 4))
        #expect(report.files[0].rowsByNetwork == ["acme": 2, "foo-mart": 1, "bar-shop": 1])
        #expect(try t.snapshot().map(\.id) == ["loc_acme_2", "loc_acme_3", "loc_bar-shop_4", "loc_foo-mart_1"])
        #expect(report.networksCreated.sorted() == ["acme", "bar-shop", "foo-mart"])
    }

    /// The fallback is replaced only when rows fell back to it: a file where every row names its network must not
    /// empty the fallback network.
    @Test func replaceNetworkTouchesTheFallbackOnlyWhenUsed() async throws {
        let t = try TempStore()
        try await t.importText("id,lat,lon\n9,40.912345,-74.912345\n", ImportOptions(network: "acme"))
        let named = "id,brand,lat,lon\n1,Foo Mart,40.112345,-74.112345\n"
        let report = try await t.importText(named, ImportOptions(network: "acme", networkColumn: "brand", replaceNetwork: true))
        #expect(report.replacedNetworks == ["foo-mart"])
        #expect(try t.snapshot().map(\.id) == ["loc_acme_9", "loc_foo-mart_1"])
        let fellBack = try await t.importText(Self.text, ImportOptions(network: "acme", networkColumn: "brand", replaceNetwork: true))
        #expect(fellBack.replacedNetworks == ["acme", "bar-shop", "foo-mart"])
        #expect(try t.store.locationIds(networkId: "acme") == ["loc_acme_2", "loc_acme_3"])
    }

    /// Without a named column a fixed network still takes every row, whatever brand column the header has.
    @Test func aFixedNetworkAloneStillTakesEveryRow() async throws {
        let t = try TempStore()
        let report = try await t.importText(Self.text, ImportOptions(network: "acme"))
        #expect(report.files[0].rowsByNetwork == ["acme": 4])
    }

    @Test func withoutAFallbackAnEmptyColumnIsStillRejected() async throws {
        let t = try TempStore()
        let report = try await t.importText(Self.text, ImportOptions(networkColumn: "brand"))
        #expect(report.files[0].rejectedByReason == ["missing_network": 2])
    }
}
