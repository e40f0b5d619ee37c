import Foundation
import OnCueContract

/// The server's decoding of a region-refresh body: the fast reader first, JSONDecoder (the contract's `Codable`) for
/// what it declines, every failure a `RegionRefreshError` that names the field.
extension RegionRefreshRequest {
    /// Decodes a JSON body, turning every decoding failure into a `RegionRefreshError` that names the field.
    public static func decode(json data: Data) throws(RegionRefreshError) -> RegionRefreshRequest {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(RegionRefreshError) in try decode(jsonBytes: bytes) }
        }
        return try result.get()
    }

    /// Decodes a JSON body from raw bytes (no copy for the common shape; see `RequestFastParser`).
    public static func decode(jsonBytes bytes: UnsafeRawBufferPointer) throws(RegionRefreshError) -> RegionRefreshRequest {
        if let request = RequestFastParser.parse(bytes) { return request }
        return try decodeWithFoundation(Data(bytes))
    }

    /// The reference decoding: every body the fast reader does not take, and the oracle its tests compare with.
    static func decodeWithFoundation(_ data: Data) throws(RegionRefreshError) -> RegionRefreshRequest {
        // Depth before any reader that costs memory with it; the duplicate it may find is refused after the syntax,
        // so that a body that is not JSON is always answered as such.
        let shape = data.withUnsafeBytes { JSONShape.check($0) }
        if case .tooDeep(let limit) = shape {
            throw .malformedJSON("more than \(limit) nested arrays or objects")
        }
        // JSONDecoder checks a number's syntax only when that value is decoded, members of a nested object in an
        // order that varies: a body with a syntax error and a wrong field could be answered either way. Checking the
        // syntax first makes the answer the same every time (this path is taken only by bodies the fast reader declines).
        let members: [String]
        do {
            let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            members = (object as? [String: Any]).map { Array($0.keys) } ?? []
        } catch {
            // Foundation's detail ("Number with leading zero around character 7.") says where; its description does not.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw .malformedJSON(detail ?? "The given data was not valid JSON.")
        }
        if case .duplicate(let member) = shape {
            throw .invalidField(field: member, reason: "appears more than once in its object (JSON leaves which one counts undefined)")
        }
        // A member a client wrote another way (`userNetworks`, `radiusKm`) would be ignored and the request answered
        // as if it had not asked: refused, naming the field meant. Others (a newer client's) are let through and named.
        var ignored: [String] = []
        for name in members.sorted() where !RegionRefreshRequest.fieldNames.contains(name) {
            if let meant = FieldNames.nearMiss(name, among: RegionRefreshRequest.fieldNames) {
                throw .invalidField(field: name, reason: "is not a field of the request; did you mean '\(meant)'?")
            }
            ignored.append(name)
        }
        do {
            var request = try JSONDecoder().decode(RegionRefreshRequest.self, from: data)
            request.ignoredFields = ignored
            return request
        } catch let error as DecodingError {
            throw RegionRefreshError(decoding: error)
        } catch {
            throw .malformedJSON(String(describing: error))
        }
    }
}
