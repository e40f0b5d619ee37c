import NIOCore
import RegionRefresh

extension JSONWriter {
    /// The JSON written so far, as a response body.
    var buffer: ByteBuffer { ByteBuffer(bytes: written) }
}

extension RegionSelection {
    /// The wire JSON of the response as a response body.
    func jsonBuffer() -> ByteBuffer {
        var w = JSONWriter(capacity: 256 + regionCount * 256)
        write(to: &w)
        return w.buffer
    }
}
