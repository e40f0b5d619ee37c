import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore
import RefreshServer

/// `oncue keys`: admin keys kept in the store, honoured by every server on it without a restart.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Admin keys: make, list and revoke the bearer tokens of /admin/* (roles read, import, admin).",
        discussion: """
            A key's role bounds what it may do: read (the import log, jobs, one location), import (also imports and \
            one-location edits), admin (also network changes, keys and the audit log). The store keeps only each \
            token's SHA-256; the token is printed once, when the key is made. Every server on the store honours a new \
            key at once and refuses a revoked one within its --store-poll-seconds. Each change is in the audit log \
            (`oncue audit`) as the key `cli`.
            """,
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Makes a key and prints its token (shown once: keep it).",
            discussion: """
                Example:
                  oncue keys create --db stores.sqlite --name "analytics team" --role read
                  oncue keys create --db postgres://oncue@db/oncue --name importer --role import --json
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "Who or what holds the key (1 to 100 printable characters).") var name: String
        @Option(help: "What the key may do.") var role: AdminRole
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let name = try AdminKeySecret.checkedName(self.name)
            let (key, token) = AdminKeySecret.mint(name: name, role: role)
            // The key and its audit entry commit together: a key nobody was shown the token of must not stay behind.
            try await store.withStore { store in
                let ledger = try Keys.ledger(store)
                try await store.transaction {
                    try await ledger.insertAdminKey(key)
                    try await ledger.appendAudit(
                        AuditEntry(at: Date(), keyId: "cli", action: "keys create", target: key.id, result: "ok", detail: "role \(key.role.rawValue)")
                    )
                }
            }
            if output.isJSON {
                print(try jsonString(AdminKeyView(key, token: token)))
            } else {
                print("key \(key.id) (\(key.role.rawValue)) for \(key.name.forMessage()); its token, shown this once:")
                print(token)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every key, revoked ones included, oldest first.",
            discussion: """
                Example:
                  oncue keys list --db stores.sqlite
                """
        )
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let keys = try await store.withStore(readOnly: true) { try await Keys.ledger($0).adminKeys() }.map { AdminKeyView($0) }
            if output.isJSON {
                print(try jsonString(keys))
                return
            }
            let rows = keys.map {
                [$0.id, $0.role.rawValue, $0.name.forMessage(limit: 60), $0.createdAt, $0.revokedAt ?? "-"]
            }
            print(textTable(["id", "role", "name", "created", "revoked"], rows), terminator: "")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revokes a key: every server on the store refuses it within its --store-poll-seconds.",
            discussion: """
                Example:
                  oncue keys revoke k_abcdefghijkl --db stores.sqlite
                """
        )
        @Argument(help: "The key's id (from `oncue keys list`).") var id: String
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let revoked = try await store.withStore { store in
                let ledger = try Keys.ledger(store)
                return try await store.transaction {
                    let revoked = try await ledger.revokeAdminKey(id: id, at: Date())
                    try await ledger.appendAudit(
                        AuditEntry(
                            at: Date(), keyId: "cli", action: "keys revoke", target: id, result: revoked == nil ? "failed" : "ok",
                            detail: revoked == nil ? "no such key" : nil))
                    return revoked
                }
            }
            guard let revoked else { throw KeysError.noSuchKey(id) }
            print("revoked \(revoked.id) (\(revoked.role.rawValue), \(revoked.name.forMessage())) at \(AdminKeyView(revoked).revokedAt ?? "-")")
        }
    }

    static func ledger(_ store: any LocationStore) throws -> any AccessLedger {
        guard let ledger = store as? any AccessLedger else { throw CommandFailure("this store keeps no admin keys") }
        return ledger
    }
}

extension AdminRole: ExpressibleByArgument {}

enum KeysError: Error, CustomStringConvertible {
    case noSuchKey(String)

    var description: String {
        switch self {
        case .noSuchKey(let id): "no admin key '\(id.forMessage())' (see `oncue keys list`)"
        }
    }
}
