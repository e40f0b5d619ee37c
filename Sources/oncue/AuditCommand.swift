import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore

/// `oncue audit`: the audit log of admin writes, newest first, a page at a time.
struct Audit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "The audit log: every admin write (through /admin/* or the command line), who did it and how it ended.",
        discussion: """
            Each entry names the key that acted (bootstrap for ONCUE_ADMIN_TOKEN, cli for the command line's writes, \
            server for what a server does of itself), the route or command, its target (a request's path with its \
            query), and the HTTP status or ok/failed. Refused requests are counted: the first of each minute per key, \
            route and status is an entry, the rest one entry saying how many. A server prunes entries older than its \
            --audit-retention-days; each prune is an entry (action "audit prune") saying how many went and from \
            before when. Pages go back in time: pass the last id printed as --before for the next one.

            Example:
              oncue audit --db stores.sqlite
              oncue audit --db stores.sqlite --limit 20 --before 120 --json
            """
    )
    @OptionGroup var store: StoreOptions
    @Option(help: "How many entries (1...1000).") var limit = 50
    @Option(help: "Only entries with an id below this one (the next page).") var before: Int64?
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be in 1...1000") }
        if let before, before < 1 { throw ValidationError("--before must be a positive entry id") }
    }

    func run() async throws {
        let (limit, before) = (limit, before)
        let entries = try await store.withStore(readOnly: true) { try await Keys.ledger($0).auditEntries(limit: limit, before: before) }
        if output.isJSON {
            print(try jsonString(entries))
            return
        }
        let rows = entries.map { e in
            [
                String(e.id ?? 0), e.at.formatted(.iso8601), e.keyId.forMessage(), e.action.forMessage(limit: 60),
                e.target.forMessage(limit: 80), e.result.forMessage(), (e.detail ?? "-").forMessage(limit: 80),
            ]
        }
        print(textTable(["id", "at", "key", "action", "target", "result", "detail"], rows), terminator: "")
    }
}
