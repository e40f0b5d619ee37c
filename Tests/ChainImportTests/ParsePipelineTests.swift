import Foundation
import Synchronization
import Testing

@testable import ChainImport

/// The parser runs ahead of the importer in its own task: rows must arrive whole and in file order, a parse
/// error after the rows before it, and a reader that stops must stop the parser within its bounded lead.
@Suite("Parse pipeline")
struct ParsePipelineTests {
    /// Chunks of a CSV, counting how many the parser has pulled.
    struct CountingChunks: AsyncSequence, Sendable {
        typealias Element = [UInt8]
        typealias Failure = any Error
        let chunks: [[UInt8]]
        let pulled: Counter

        struct Iterator: AsyncIteratorProtocol {
            let chunks: [[UInt8]]
            let pulled: Counter
            /// Counts in `pulled.released` when the last copy of this iterator goes, i.e. when the parser's task ends.
            let lifetime: Lifetime
            var next = 0
            mutating func next() async throws -> [UInt8]? {
                guard next < chunks.count else { return nil }
                defer { next += 1 }
                pulled.add()
                return chunks[next]
            }
        }

        func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks, pulled: pulled, lifetime: Lifetime(pulled)) }
    }

    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        private let releasedValue = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        func release() { releasedValue.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
        var released: Int { releasedValue.load(ordering: .relaxed) }
    }

    final class Lifetime: Sendable {
        let counter: Counter
        init(_ counter: Counter) { self.counter = counter }
        deinit { counter.release() }
    }

    /// A CSV of `rows` rows cut into one chunk per row.
    static func csv(rows: Int, brokenAt broken: Int? = nil) -> [[UInt8]] {
        var chunks = [Array("id,name,latitude,longitude,brand\n".utf8)]
        for i in 1...rows {
            let line = i == broken ? "\(i),\"unclosed,40.0,-74.0,Acme\n" : "\(i),Store \(i),40.\(i % 1000),-74.\(i % 997),Acme\n"
            chunks.append(Array(line.utf8))
        }
        return chunks
    }

    @Test func everyRowArrivesOnceInFileOrder() async throws {
        let counter = Counter()
        let parser = RowParser(fileName: "t.csv", options: ImportOptions(networkColumn: "brand"), batchSize: 7)
        var lines: [Int] = []
        var finished: ParsedFile?
        for try await event in ParsePipeline.events(parser, chunks: CountingChunks(chunks: Self.csv(rows: 500), pulled: counter), depth: 2) {
            switch event {
            case .header(let headers, _): #expect(headers == ["id", "name", "latitude", "longitude", "brand"] && lines.isEmpty)
            case .rows(let rows, _): lines += rows.map(\.line)
            case .finished(let file): finished = file
            }
        }
        #expect(lines == Array(2...501))
        #expect(finished?.bytesRead == Int64(Self.csv(rows: 500).reduce(0) { $0 + $1.count }))
    }

    @Test func aParseErrorComesAfterTheRowsBeforeIt() async throws {
        let parser = RowParser(fileName: "t.csv", options: ImportOptions(networkColumn: "brand"), batchSize: 4)
        var lines: [Int] = []
        await #expect(throws: ImportError.self) {
            for try await event in ParsePipeline.events(parser, chunks: CountingChunks(chunks: Self.csv(rows: 300, brokenAt: 120), pulled: Counter()))
            {
                if case .rows(let rows, _) = event { lines += rows.map(\.line) }
            }
        }
        // The unclosed quote swallows the rest of the file, so the error comes at its end, after rows 1-119.
        #expect(lines == Array(2...120))
    }

    @Test func aReaderThatStopsStopsTheParser() async throws {
        let counter = Counter()
        let chunks = Self.csv(rows: 20_000)
        // Blocks of 16 bytes: the parser parses what each read brings (it waits for a whole block, 1 MiB by default,
        // which would be the whole of this small file).
        let parser = RowParser(fileName: "t.csv", options: ImportOptions(networkColumn: "brand"), batchSize: 1, blockSize: 16)
        do {
            var events = ParsePipeline.events(parser, chunks: CountingChunks(chunks: chunks, pulled: counter), depth: 4).makeAsyncIterator()
            _ = try await events.next()
            _ = try await events.next()
        }
        // The parser holds the file's first rows until they tell its coordinate grid (one row a chunk here), then runs at
        // most `depth` events (one row each) ahead of the reader, and is cancelled when the reader stops. Its task ends
        // when the pool next runs it (on a loaded machine, seconds later); from then on the chunks it pulled are final —
        // a parser that kept reading would have pulled the whole file by the time it ended.
        let deadline = ContinuousClock.now + .seconds(30)
        while counter.released == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(counter.released == 1, "the parser's task did not end after its reader stopped")
        let pulled = counter.count
        #expect(pulled < CoordinatePrecision.sampleRows + 20, "the parser pulled \(pulled) of \(chunks.count) chunks")
    }
}
