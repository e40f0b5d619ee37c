import Foundation

/// The two request decoders, side by side, for the differential libFuzzer target in `Fuzz/` (issue 21).
///
/// `@_spi(Fuzzing)`: not part of RegionRefresh's API. `decode(jsonBytes:)` tries the fast reader and falls back to
/// JSONDecoder; a fuzzer needs each one alone to hold them to the same answer on every body.
extension RegionRefreshRequest {
    /// `RequestFastParser`'s answer alone: nil when it leaves the body to JSONDecoder.
    @_spi(Fuzzing) public static func fastDecodeForFuzzing(_ bytes: UnsafeRawBufferPointer) -> RegionRefreshRequest? {
        RequestFastParser.parse(bytes)
    }

    /// The reference decoding alone (JSONDecoder, errors mapped as the API maps them).
    @_spi(Fuzzing) public static func referenceDecodeForFuzzing(_ data: Data) throws(RegionRefreshError) -> RegionRefreshRequest {
        try decodeWithFoundation(data)
    }
}
