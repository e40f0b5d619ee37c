import HTTPTypes

/// The `Authorization: Bearer <token>` header, read the same way on every route that takes one.
enum BearerToken {
    /// The token of a header that uses the Bearer scheme (case-insensitive, RFC 6750), nil otherwise.
    static func token(in header: String?) -> Substring? {
        guard let header else { return nil }
        let prefix = "bearer "
        guard header.utf8.count > prefix.utf8.count, header.prefix(prefix.count).lowercased() == prefix else { return nil }
        return header.dropFirst(prefix.count)
    }

    /// Compares in time that depends only on the lengths, so response timing does not reveal how many leading bytes of
    /// a guess were right.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        if a.count != b.count { difference |= 1 }
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
