import Logging

/// Writes what `StreamLogHandler` writes, in the same format, but renders the logger's metadata only for a
/// line that is written. `StreamLogHandler` renders it again on every change, and every request changes it
/// twice (Hummingbird's request id, then ours) whether or not anything is logged: about 5 % of a
/// request's CPU in profiles of the server under load.
package struct DeferredMetadataLogHandler: LogHandler {
    private var stream: StreamLogHandler
    package var metadata: Logger.Metadata = [:]

    /// A handler writing to standard error, like `StreamLogHandler.standardError(label:)`.
    package static func standardError(label: String) -> DeferredMetadataLogHandler {
        DeferredMetadataLogHandler(stream: .standardError(label: label))
    }

    /// Wraps `stream`, which must not carry metadata of its own (it would be rendered on every change again).
    package init(stream: StreamLogHandler) {
        self.stream = stream
    }

    package var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    package var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            // The line's own values win over the logger's, as in StreamLogHandler.
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        stream.log(event: event)
    }
}
