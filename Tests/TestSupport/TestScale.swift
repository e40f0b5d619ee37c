import Foundation

/// How many cases a property or oracle test draws: its everyday count times `ONCUE_TEST_SCALE` (a positive number; 1
/// when unset). The everyday counts are what the suite runs on every change, sized so that the whole suite fits CI's
/// budget on two cores; a deeper run of the same tests draws more of the same random cases, e.g.
/// `ONCUE_TEST_SCALE=10 swift test --filter AccuracyGuaranteeTests` (docs/testing.md).
public enum TestScale {
    public static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["ONCUE_TEST_SCALE"], let value = Double(text), value > 0, value.isFinite else {
            return 1
        }
        return value
    }()

    /// `everyday` scaled, at least 1.
    public static func cases(_ everyday: Int) -> Int {
        max(1, Int((Double(everyday) * factor).rounded()))
    }
}
