import Synchronization
import Testing

@testable import PostGISStore

/// The PostGIS import writer's pipeline of batches: written in the order sent, one at a time, an error stops the batches
/// after it, and nothing is written once the importer has abandoned or settled.
@Suite("Batches in flight")
struct BatchInFlightTests {
    /// What the writes saw: the order they ran in, and how many ran at once.
    final class Journal: Sendable {
        private struct State {
            var written: [Int] = []
            var writing = 0
            var mostAtOnce = 0
        }
        private let state = Mutex(State())

        func begin() {
            state.withLock {
                $0.writing += 1
                $0.mostAtOnce = max($0.mostAtOnce, $0.writing)
            }
        }
        func end(_ batch: Int) {
            state.withLock {
                $0.writing -= 1
                $0.written.append(batch)
            }
        }
        var written: [Int] { state.withLock { $0.written } }
        var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    }

    struct Refused: Error, Equatable { var batch: Int }

    /// Encoding work of uneven length, so that later batches would often finish encoding first.
    static func encode(_ batch: Int) -> Int {
        var x = UInt64(batch) &+ 1
        for _ in 0..<((batch * 7_919) % 50_000) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        return batch + Int(x & 0)
    }

    static func write(_ batch: Int, journal: Journal, failing: Int? = nil) async throws {
        journal.begin()
        try await Task.sleep(for: .microseconds((batch * 37) % 400))
        journal.end(batch)
        if batch == failing { throw Refused(batch: batch) }
    }

    @Test("batches are written in the order sent, one at a time")
    func inOrder() async throws {
        let journal = Journal()
        var pipeline = BatchInFlight()
        for batch in 0..<60 {
            try await pipeline.send(encode: { Self.encode(batch) }, write: { try await Self.write($0, journal: journal) })
        }
        try await pipeline.settle()
        #expect(journal.written == Array(0..<60))
        #expect(journal.mostAtOnce == 1)
    }

    @Test("a failed batch fails the import, and no batch after it is written")
    func errorStops() async throws {
        let journal = Journal()
        var pipeline = BatchInFlight()
        var caught: (any Error)?
        for batch in 0..<20 {
            do {
                try await pipeline.send(encode: { Self.encode(batch) }, write: { try await Self.write($0, journal: journal, failing: 5) })
            } catch {
                caught = error
                break
            }
        }
        if caught == nil {
            do { try await pipeline.settle() } catch { caught = error }
        } else {
            await pipeline.abandon()
        }
        #expect(caught as? Refused == Refused(batch: 5))
        #expect(journal.written == Array(0...5))
    }

    @Test("after abandon nothing is being written, and nothing is written later")
    func abandonWaits() async throws {
        let journal = Journal()
        var pipeline = BatchInFlight()
        for batch in 0..<2 {
            try await pipeline.send(encode: { Self.encode(batch) }, write: { try await Self.write($0, journal: journal) })
        }
        await pipeline.abandon()
        let after = journal.written
        #expect(after == [0, 1])
        try await Task.sleep(for: .milliseconds(20))
        #expect(journal.written == after)
    }
}
