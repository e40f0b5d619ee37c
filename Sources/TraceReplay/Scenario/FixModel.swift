/// Where the OS's positions come from: each trace fix is taken by one of the sources (drawn by weight), with that
/// source's error, and some fixes are lost to dropouts.
public struct FixModel: Codable, Sendable, Hashable {
    package struct Source: Codable, Sendable, Hashable {
        package var name: String
        /// Relative frequency.
        package var weight: Double
        /// Reported horizontal accuracy (68 % radius) is uniform in [min, max] metres; the error follows it.
        package var accuracyMinMeters: Double
        package var accuracyMaxMeters: Double
        /// The trace's own position, unchanged: a GPS log already carries GPS error, adding more would count it
        /// twice. Its accuracy is the trace's where it has one, else drawn from [min, max].
        package var recorded: Bool

        package init(name: String, weight: Double, accuracyMinMeters: Double, accuracyMaxMeters: Double, recorded: Bool = false) {
            self.name = name
            self.weight = weight
            self.accuracyMinMeters = accuracyMinMeters
            self.accuracyMaxMeters = accuracyMaxMeters
            self.recorded = recorded
        }

        enum CodingKeys: String, CodingKey { case name, weight, accuracyMinMeters, accuracyMaxMeters, recorded }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            weight = try c.decode(Double.self, forKey: .weight)
            accuracyMinMeters = try c.decode(Double.self, forKey: .accuracyMinMeters)
            accuracyMaxMeters = try c.decode(Double.self, forKey: .accuracyMaxMeters)
            recorded = try c.decodeIfPresent(Bool.self, forKey: .recorded) ?? false
        }
    }

    package var sources: [Source]
    /// Chance per fix that a dropout (no fixes) starts, and its mean length.
    package var dropoutProbability: Double
    package var dropoutMeanSeconds: Double
    /// Positioning error persists: the error's direction and size drift with this correlation time (0: every fix
    /// independent). Independent draws would let repeated checks average a Wi-Fi fix's bias away.
    package var errorCorrelationSeconds: Double
    /// What the phone knows while the trace's logger is silent at a stay (`GapFill`): off for the model's own
    /// traces, whose indoor fixes are part of the trace.
    package var gapFill: GapFill = .off

    /// A phone in the background: mostly Wi-Fi positioning, GPS when something has it on, cell towers otherwise.
    public static let phone = FixModel(
        sources: [
            Source(name: "gps", weight: 0.25, accuracyMinMeters: 5, accuracyMaxMeters: 10, recorded: true),
            Source(name: "wifi", weight: 0.70, accuracyMinMeters: 20, accuracyMaxMeters: 50),
            Source(name: "cell", weight: 0.05, accuracyMinMeters: 300, accuracyMaxMeters: 1_500),
        ], dropoutProbability: 0.002, dropoutMeanSeconds: 120, errorCorrelationSeconds: 60)
    package static let exact = FixModel(
        sources: [Source(name: "exact", weight: 1, accuracyMinMeters: 0, accuracyMaxMeters: 0)],
        dropoutProbability: 0, dropoutMeanSeconds: 0, errorCorrelationSeconds: 0)
}
