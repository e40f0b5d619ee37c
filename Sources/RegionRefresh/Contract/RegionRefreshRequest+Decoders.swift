import Foundation
import OnCueContract

/// The two request decoders, each alone, for differential checks (RELIABILITY.md).
///
/// `@_spi(Decoders)`: not part of RegionRefresh's API. `decode(jsonBytes:)` tries the fast reader and falls back to
/// JSONDecoder; a differential check needs each one alone to hold them to the same answer on every body.
extension RegionRefreshRequest {
    /// `RequestFastParser`'s answer alone: nil when it leaves the body to JSONDecoder.
    @_spi(Decoders) public static func fastDecodeOnly(_ bytes: UnsafeRawBufferPointer) -> RegionRefreshRequest? {
        RequestFastParser.parse(bytes)
    }

    /// The reference decoding alone (JSONDecoder, errors mapped as the API maps them).
    @_spi(Decoders) public static func referenceDecodeOnly(_ data: Data) throws(RegionRefreshError) -> RegionRefreshRequest {
        try decodeWithFoundation(data)
    }
}
