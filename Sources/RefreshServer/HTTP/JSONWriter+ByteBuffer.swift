import NIOCore
import RegionRefresh

extension JSONWriter {
    /// The JSON written so far, as a response body.
    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }
}

extension RegionRefreshResponse {
    /// The wire JSON as a response body.
    func jsonBuffer() -> ByteBuffer { ByteBuffer(bytes: wireJSON()) }
}
