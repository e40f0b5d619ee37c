import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One CSV to import: a name for the log, its size if known (for percent and ETA), and its bytes
/// as a stream of chunks — a file on disk, or an HTTP request body passed through unbuffered.
package struct ImportInput: Sendable {
    package var name: String
    package var size: Int64?
    package var chunks: any AsyncSequence<[UInt8], any Error> & Sendable

    package init(name: String, size: Int64?, chunks: some AsyncSequence<[UInt8], any Error> & Sendable) {
        self.name = name
        self.size = size
        self.chunks = chunks
    }

    /// A file read in `chunkSize` pieces; fails now if the file cannot be opened.
    package static func file(_ path: String, chunkSize: Int = 1 << 20) throws -> ImportInput {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ImportError.unreadableFile(path: path, reason: "no such file")
        }
        guard access(path, R_OK) == 0 else { throw ImportError.unreadableFile(path: path, reason: "permission denied") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        return ImportInput(name: (path as NSString).lastPathComponent, size: size, chunks: FileChunks(path: path, chunkSize: chunkSize))
    }

    /// The bytes `range` of a file: one part of a multipart upload staged whole.
    package static func file(_ path: String, range: Range<Int64>, chunkSize: Int = 1 << 20) -> ImportInput {
        ImportInput(
            name: (path as NSString).lastPathComponent, size: Int64(range.count),
            chunks: FileChunks(path: path, chunkSize: chunkSize, range: range))
    }

    /// An in-memory text, for tests and small uploads.
    package static func bytes(_ bytes: [UInt8], name: String = "input.csv", chunkSize: Int = 1 << 16) -> ImportInput {
        ImportInput(name: name, size: Int64(bytes.count), chunks: ByteChunks(bytes: bytes, chunkSize: max(1, chunkSize)))
    }
}

/// A file's bytes as chunks read with `read(2)`; the file is opened on first use and closed at the end.
package struct FileChunks: AsyncSequence, Sendable {
    package typealias Element = [UInt8]
    package typealias Failure = any Error
    package let path: String
    package let chunkSize: Int
    /// The bytes read (nil: the whole file).
    package let range: Range<Int64>?

    package init(path: String, chunkSize: Int = 1 << 20, range: Range<Int64>? = nil) {
        self.path = path
        self.chunkSize = chunkSize
        self.range = range
    }

    package func makeAsyncIterator() -> Iterator { Iterator(path: path, chunkSize: chunkSize, range: range) }

    package final class Iterator: AsyncIteratorProtocol {
        private let path: String
        private let chunkSize: Int
        private let range: Range<Int64>?
        private var remaining = Int64.max
        private var fd: Int32 = -1
        private var done = false

        init(path: String, chunkSize: Int, range: Range<Int64>?) {
            self.path = path
            self.chunkSize = chunkSize
            self.range = range
        }

        deinit { if fd >= 0 { close(fd) } }

        package func next() async throws -> [UInt8]? {
            if done { return nil }
            if fd < 0 {
                fd = open(path, O_RDONLY)
                guard fd >= 0 else { throw ImportError.unreadableFile(path: path, reason: String(cString: strerror(errno))) }
                if let range {
                    guard lseek(fd, off_t(range.lowerBound), SEEK_SET) >= 0 else {
                        throw ImportError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
                    }
                    remaining = Int64(range.count)
                }
            }
            let wanted = Int(Swift.min(Int64(chunkSize), remaining))
            var chunk = [UInt8](repeating: 0, count: wanted)
            let n = wanted == 0 ? 0 : chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
            if n < 0 { throw ImportError.unreadableFile(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 {
                done = true
                close(fd)
                fd = -1
                return nil
            }
            remaining -= Int64(n)
            chunk.removeSubrange(n...)
            return chunk
        }
    }
}

/// An array's bytes in fixed-size chunks (tests use small chunks to cut records anywhere).
package struct ByteChunks: AsyncSequence, Sendable {
    package typealias Element = [UInt8]
    package typealias Failure = any Error
    let bytes: [UInt8]
    let chunkSize: Int

    package func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes, chunkSize: chunkSize) }

    package struct Iterator: AsyncIteratorProtocol {
        let bytes: [UInt8]
        let chunkSize: Int
        var offset = 0

        package mutating func next() async throws -> [UInt8]? {
            guard offset < bytes.count else { return nil }
            let end = Swift.min(bytes.count, offset + chunkSize)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }
}

extension ImportInput {
    /// The input's size and SHA-256 read from its start, or nil when its bytes cannot be read again.
    package func fingerprint() async -> (size: Int64, sha256: String)? {
        var sha = SHA256()
        var size: Int64 = 0
        do {
            for try await chunk in chunks {
                sha.update(chunk)
                size += Int64(chunk.count)
            }
        } catch { return nil }
        return (size, sha.finalizeHex())
    }
}
