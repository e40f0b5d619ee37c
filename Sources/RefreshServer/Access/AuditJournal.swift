import Crypto
import Foundation
import LocationStore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Audit entries the store could not take yet, on disk: each is appended and flushed to the disk (`fsync`) before the
/// write it records is answered, so that an entry waiting for an import to end is not lost with the process.
///
/// One file per server process, `oncue-audit-<store>-<uuid>.jsonl` in the server's temporary directory (`<store>` a
/// hash of the store's address: servers of different stores may share the directory), held with an exclusive `flock`
/// while the process lives (the kernel drops it however the process dies). Each line is an entry with its number, or
/// `{"written_through": N}` once entries up to N are in the store. A server that starts finds the files of its store
/// no live server holds and writes their unwritten entries into the store (`orphan`), so replicas may share the
/// directory. The file is emptied whenever every entry in it has reached the store.
final class AuditJournal {
    static let filePrefix = "oncue-audit-"

    /// One line of the file.
    struct Line: Codable {
        var n: UInt64?
        var at: Double?
        var key: String?
        var action: String?
        var target: String?
        var result: String?
        var detail: String?
        var writtenThrough: UInt64?

        enum CodingKeys: String, CodingKey {
            case n, at, key, action, target, result, detail
            case writtenThrough = "written_through"
        }

        init(_ number: UInt64, _ entry: AuditEntry) {
            n = number
            at = entry.at.timeIntervalSince1970
            key = entry.keyId
            action = entry.action
            target = entry.target
            result = entry.result
            detail = entry.detail
        }

        init(writtenThrough: UInt64) { self.writtenThrough = writtenThrough }

        var entry: AuditEntry? {
            guard let at, let key, let action, let target, let result else { return nil }
            return AuditEntry(at: Date(timeIntervalSince1970: at), keyId: key, action: action, target: target, result: result, detail: detail)
        }
    }

    let path: String
    private let descriptor: Int32
    /// Bytes in the file now: 0 when every entry has reached the store.
    private(set) var size = 0

    /// Creates this process's file for the store `storeTag` in `directory`; nil when it cannot be created there.
    init?(directory: String, storeTag: String) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName(storeTag: storeTag, id: UUID().uuidString))
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            unlink(path)
            return nil
        }
        self.path = path
        descriptor = fd
    }

    deinit {
        close(descriptor)
        // Left behind only when entries wait in it; the next server writes them.
        if size == 0 { unlink(path) }
    }

    /// Appends `lines` and waits until the disk has them; false when either failed.
    func append(_ lines: [Line]) -> Bool {
        guard !lines.isEmpty else { return true }
        var bytes: [UInt8] = []
        let encoder = JSONEncoder()
        for line in lines {
            guard let data = try? encoder.encode(line) else { return false }
            bytes += data
            bytes.append(UInt8(ascii: "\n"))
        }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        guard written, fsync(descriptor) == 0 else { return false }
        size += bytes.count
        return true
    }

    /// Empties the file: every entry it held is in the store.
    func clear() {
        if ftruncate(descriptor, 0) == 0 { size = 0 }
    }

    /// The unwritten entries of a file no live server holds, oldest first, and a lock on it until it is removed; nil
    /// when a live server holds it or it cannot be read.
    static func orphan(at path: String) -> (entries: [AuditEntry], lock: ImportUpload.FileLock)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let lock = ImportUpload.FileLock(fd)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, let data = FileManager.default.contents(atPath: path) else { return nil }
        var entries: [(UInt64, AuditEntry)] = []
        var writtenThrough: UInt64 = 0
        let decoder = JSONDecoder()
        // A line cut by a crash mid-write is the last and was never acknowledged: it is skipped.
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let decoded = try? decoder.decode(Line.self, from: Data(line)) else { continue }
            if let through = decoded.writtenThrough { writtenThrough = max(writtenThrough, through) }
            if let n = decoded.n, let entry = decoded.entry { entries.append((n, entry)) }
        }
        return (entries.filter { $0.0 > writtenThrough }.map(\.1), lock)
    }

    /// The name of a journal of the store `storeTag`.
    static func fileName(storeTag: String, id: String) -> String { "\(filePrefix)\(storeTag)-\(id).jsonl" }

    /// The paths of the store `storeTag`'s journals in `directory` other than `own`.
    static func others(in directory: String, own: String?, storeTag: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("\(filePrefix)\(storeTag)-") && $0.hasSuffix(".jsonl") }
            .map { (directory as NSString).appendingPathComponent($0) }.filter { $0 != own }.sorted()
    }

    /// What names a store in its journals' names: 16 hex digits of the SHA-256 of its address (a file's resolved
    /// path; a database's host, port and name, never its password).
    static func storeTag(_ address: StoreAddress) -> String {
        let text: String =
            switch address {
            case .file(let path): URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            case .postgres(let url): "postgres://\(url.host):\(url.port)/\(url.database)"
            }
        return SHA256.hash(data: Array(text.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
