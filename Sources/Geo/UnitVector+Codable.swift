/// As its three components, so that a decoded vector is the very one encoded (a client's saved state resumes with the
/// same arithmetic; latitude and longitude would round-trip through trigonometry).
extension UnitVector: Codable {
    enum CodingKeys: String, CodingKey { case x, y, z }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y), z: try c.decode(Double.self, forKey: .z))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(z, forKey: .z)
    }
}
