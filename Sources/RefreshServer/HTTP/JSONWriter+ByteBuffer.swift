import NIOCore
import RegionRefresh

extension JSONWriter {
    /// The JSON written so far, as a response body.
    var buffer: ByteBuffer { ByteBuffer(bytes: written) }
}

extension RegionRefreshResponse {
    /// The wire JSON as a response body.
    func jsonBuffer() -> ByteBuffer {
        var w = JSONWriter(capacity: 256 + regions.count * 256)
        write(to: &w)
        return w.buffer
    }
}
