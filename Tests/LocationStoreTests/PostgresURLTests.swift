import LocationStore
import Testing

/// `connect_timeout` reads as libpq reads it (whole seconds, 2 at least), except that it is never unbounded (0 is the
/// default, 10 s) and at most an hour.
@Suite struct PostgresURLTests {
    static let base = "postgres://oncue@127.0.0.1:5432/oncue"

    @Test(arguments: [("", 10), ("?connect_timeout=5", 5), ("?connect_timeout=1", 2), ("?connect_timeout=0", 10), ("?connect_timeout=3600", 3600)])
    func connectTimeout(query: String, seconds: Int64) throws {
        let url = try PostgresURL(Self.base + query)
        #expect(url.connectTimeout == .seconds(seconds))
        #expect(try PostgresURL(url.description) == url, "the description reads back as the same URL")
    }

    @Test(arguments: [
        "?connect_timeout=-1", "?connect_timeout=abc", "?connect_timeout=2.5", "?connect_timeout", "?connect_timeout=3601",
        "?connect_timeout=9223372036854775807",
    ])
    func aConnectTimeoutThatIsNoWholeNumberIsRefused(query: String) {
        #expect(throws: StoreError.self) { try PostgresURL(Self.base + query) }
    }

    /// A refused URL is named in its error without its password, also when it does not parse as a URL at all.
    @Test(arguments: [
        "postgres://user:hunter2pw@db.example:notaport/x", "postgres://user:hunter2pw@db.example/x?bogus=1", "postgres://user:hunter2pw@/x",
        "postgres://user:hunter2pw@db.example:99999/x", "postgres://user:hunter2pw@[db.example/x",
    ])
    func aRefusedURLKeepsItsPassword(text: String) {
        let error = #expect(throws: StoreError.self) { try PostgresURL(text) }
        #expect(error.map { !"\($0)".contains("hunter2pw") } == true, "\(String(describing: error))")
        #expect(!PostgresURL.redact(text).contains("hunter2pw"))
    }
}
