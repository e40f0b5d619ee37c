import Foundation
import LocationStore
import PostGISStore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL primary and its streaming standby of their own (scripts/postgres.sh with a directory and ports not the
/// suite's), with HAProxy in front as a failover manager's balancer would be: connections go to the primary while its
/// `pgsql-check` passes and to the standby (a backup) once it fails, and the sessions of a server marked down are cut.
/// The test plays the failover manager: it stops the primary dead and promotes the standby.
struct FailoverPair {
    static let haproxy = "/usr/sbin/haproxy"
    static let postgresBin = "/usr/lib/postgresql/15/bin"
    /// Ports of their own: the suite's clusters are on 15433-15434, the reference fleet on 16000 and up.
    static let port = 15443

    /// CI has what the pair needs (scripts/test.sh installs HAProxy, and the clusters run as the postgres user).
    static var available: Bool {
        PostgresServers.required || (FileManager.default.isExecutableFile(atPath: haproxy) && getuid() == 0 && PostgresServers.primary != nil)
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    let directory: URL
    let balancer: Process

    /// The database through HAProxy, as the server is given it.
    var balanced: PostgresURL { get throws { try PostgresURL("postgres://oncue@127.0.0.1:\(Self.port + 2)/oncue?connect_timeout=2") } }
    /// The standby's own address: after the promotion, the new primary.
    var standby: PostgresURL { get throws { try PostgresURL("postgres://oncue@127.0.0.1:\(Self.port + 1)/oncue") } }

    static func start() async throws -> FailoverPair {
        // A pair a crashed run left behind holds the ports: stop it (its directory says where its clusters are).
        let temporary = NSTemporaryDirectory()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix("oncue-failover-") {
            let path = URL(fileURLWithPath: temporary).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory), isDirectory.boolValue {
                try? await script("stop", path)
            }
        }
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("oncue-failover-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = chmod(directory.path, 0o755)  // the clusters run as the postgres user
        for command in ["start", "start-standby"] { try await script(command, directory) }
        let config = directory.appendingPathComponent("haproxy.cfg")
        try """
        defaults
            mode tcp
            timeout connect 1s
            timeout client 1h
            timeout server 1h
        listen postgres
            bind 127.0.0.1:\(port + 2)
            option pgsql-check user postgres
            default-server inter 300ms fall 2 rise 1 on-marked-down shutdown-sessions
            server primary 127.0.0.1:\(port) check
            server standby 127.0.0.1:\(port + 1) check backup

        """.write(to: config, atomically: true, encoding: .utf8)
        let balancer = Process()
        balancer.executableURL = URL(fileURLWithPath: haproxy)
        balancer.arguments = ["-db", "-q", "-f", config.path]
        balancer.standardOutput = FileHandle.nullDevice
        balancer.standardError = FileHandle.nullDevice
        try balancer.run()
        let pair = FailoverPair(directory: directory, balancer: balancer)
        let through = try pair.balanced
        let listening = try await eventually(within: .seconds(20)) {
            (try? await PostGISLocationStore.execute(on: through, "SELECT 1")) != nil
        }
        try #require(listening, "HAProxy never passed a connection to the primary")
        return pair
    }

    /// `scripts/postgres.sh COMMAND` for this pair's directory and ports, its output in a file.
    private static func script(_ command: String, _ directory: URL) async throws {
        let log = NSTemporaryDirectory() + "oncue-failover-\(getpid())-\(command).log"
        let script = repository.appendingPathComponent("scripts/postgres.sh").path
        let status = await shell("PGDIR='\(directory.path)' PGPORT=\(port) bash '\(script)' \(command) > '\(log)' 2>&1")
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        try #require(status == 0, "scripts/postgres.sh \(command) failed: \(output)")
    }

    /// Runs a shell command to its end on a thread of its own (`system`, which waits for the shell's own exit). Not
    /// Foundation's `Process`: it learns of a child's exit through a descriptor the child inherits, and the PostgreSQL
    /// server the script starts keeps that descriptor, so the exit was never seen.
    private static func shell(_ command: String) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread {
                let status = system(command)
                continuation.resume(returning: status == -1 ? -1 : (status >> 8) & 0xff)
            }.start()
        }
    }

    /// `pg_ctl` as the postgres user on one of the pair's data directories.
    private func pgCtl(_ node: String, _ arguments: [String]) async throws {
        let status = await Self.shell(
            "runuser -u postgres -- \(Self.postgresBin)/pg_ctl -D '\(directory.appendingPathComponent(node).path)' \(arguments.joined(separator: " ")) >/dev/null 2>&1"
        )
        try #require(status == 0, "pg_ctl \(arguments.joined(separator: " ")) on the \(node) failed with status \(status)")
    }

    /// The primary's host lost: no shutdown checkpoint, no goodbye to its clients.
    func stopPrimary() async throws { try await pgCtl("primary", ["stop", "-m", "immediate"]) }

    /// The standby becomes the primary (a new timeline), as Patroni or an operator promotes it.
    func promoteStandby() async throws { try await pgCtl("standby", ["promote", "-w"]) }

    func stop() async {
        if balancer.isRunning { balancer.terminate() }
        try? await Self.script("stop", directory)
        try? FileManager.default.removeItem(at: directory)
    }
}
