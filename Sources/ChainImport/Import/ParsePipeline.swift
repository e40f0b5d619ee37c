import Synchronization

/// Runs a `RowParser` over a file's chunks in a task of its own, so that parsing and decoding (a fifth of a
/// large import) overlap with the store's writes on another core. The parser stays at most `depth` events
/// ahead of the reader, so memory stays flat however large the file is; events arrive in file order, and
/// a parse error arrives after the rows before it, as it would without the pipeline.
package enum ParsePipeline {
    package static func events(
        _ parser: RowParser, chunks: some AsyncSequence<[UInt8], any Error> & Sendable,
        depth: Int = 8
    ) -> ParseEvents {
        let (stream, continuation) = AsyncThrowingStream<ParseEvent, any Error>.makeStream()
        let permits = Permits(depth)
        // On the global pool even when the import itself runs on a dedicated executor (the server's), so the two overlap.
        let producer = Task(executorPreference: globalConcurrentExecutor) {
            var parser = parser
            do {
                for try await chunk in chunks {
                    for event in try parser.consume(chunk) { try await hand(event) }
                }
                for event in try parser.finish() { try await hand(event) }
                try parser.throwPendingError()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            func hand(_ event: ParseEvent) async throws {
                try await permits.acquire()
                continuation.yield(event)
            }
        }
        // The reader stopped (done, failed or dropped the sequence): stop the parser too.
        continuation.onTermination = { _ in
            producer.cancel()
            permits.close()
        }
        return ParseEvents(stream: stream, permits: permits)
    }
}

/// The parser's events for one reader; each event taken lets the parser run one further ahead.
package struct ParseEvents: AsyncSequence {
    package typealias Element = ParseEvent
    package typealias Failure = any Error
    let stream: AsyncThrowingStream<ParseEvent, any Error>
    let permits: Permits

    package struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ParseEvent, any Error>.Iterator
        let permits: Permits

        package mutating func next() async throws -> ParseEvent? {
            let event = try await base.next()
            if event != nil { permits.release() }
            return event
        }
    }

    package func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), permits: permits) }
}

/// A counting semaphore for tasks: `acquire` waits while none is free; `close` fails every wait, now and later.
final class Permits: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, any Error>] = []
        var closed = false
    }

    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(free: max(1, count))) }

    func acquire() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let granted: Bool? = state.withLock { s in
                if s.closed { return false }
                if s.free > 0 {
                    s.free -= 1
                    return true
                }
                s.waiting.append(continuation)
                return nil
            }
            switch granted {
            case true?: continuation.resume()
            case false?: continuation.resume(throwing: CancellationError())
            case nil: break
            }
        }
    }

    func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            if !s.waiting.isEmpty { return s.waiting.removeFirst() }
            s.free += 1
            return nil
        }
        next?.resume()
    }

    func close() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.closed = true
            defer { s.waiting = [] }
            return s.waiting
        }
        for w in waiting { w.resume(throwing: CancellationError()) }
    }
}
