import Logging
import RefreshServer
import Synchronization
import Testing

/// The server's log handler must write exactly what `StreamLogHandler` writes for the same logger state.
@Suite("Deferred-metadata log handler")
struct LogHandlerTests {
    final class Lines: Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    struct Sink: TextOutputStream, Sendable {
        let lines: Lines
        mutating func write(_ string: String) { lines.write(string) }
    }

    /// Each line without its timestamp (the first field), which differs between two writes.
    private func withoutTimestamps(_ text: String) -> [Substring] {
        text.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last ?? "" }
    }

    @Test func writesWhatStreamLogHandlerWrites() {
        let plain = Lines()
        let deferred = Lines()
        var a = Logger(label: "oncue.test") { label in StreamLogHandler(label: label, stream: Sink(lines: plain), metadataProvider: nil) }
        var b = Logger(label: "oncue.test") { label in
            DeferredMetadataLogHandler(stream: StreamLogHandler(label: label, stream: Sink(lines: deferred), metadataProvider: nil))
        }
        let steps: [(inout Logger) -> Void] = [
            { $0.logLevel = .debug }, { $0[metadataKey: "request_id"] = "r1" },
            { $0[metadataKey: "hb.request.id"] = .stringConvertible(42) }, { $0[metadataKey: "request_id"] = "r2" },
        ]
        for i in steps.indices {
            let apply = steps[i]
            apply(&a)
            apply(&b)
            for logger in [a, b] {
                logger.debug("step", metadata: ["i": .stringConvertible(i)])
                logger.info("plain")
                logger.trace("not written")
                logger.error("with overlap", metadata: ["request_id": "explicit wins", "list": ["x", "y"]])
            }
        }
        let expected = withoutTimestamps(plain.text.withLock { $0 })
        #expect(expected.count == 12)
        #expect(withoutTimestamps(deferred.text.withLock { $0 }) == expected)
        #expect(b[metadataKey: "request_id"] == "r2")
    }
}
