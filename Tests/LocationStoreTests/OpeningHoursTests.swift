import Foundation
import LocationStore
import TestSupport
import Testing

/// The opening_hours reader against reference vectors from opening-hours-py (the Rust `opening-hours` crate): every
/// distinct value of the OpenStreetMap extract of central Helsinki and 400 generated ones, each evaluated over one week
/// in 15-minute steps (`scripts/make-opening-hours-vectors.py`).
@Suite("Opening hours", .cpuHeavy)
struct OpeningHoursTests {
    struct Vector {
        var value: String
        /// Nil: the crate refuses the value.
        var states: [OpeningHours.State]?
    }

    static func vectors() throws -> [Vector] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/opening-hours-vectors.tsv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts[0].replacingOccurrences(of: "\\t", with: "\t").replacingOccurrences(of: "\\n", with: "\n")
                .replacingOccurrences(of: "\\\\", with: "\\")
            guard parts[1] != "invalid" else { return Vector(value: value, states: nil) }
            var states: [OpeningHours.State] = []
            var letter: Character = "c"
            var count = 0
            for c in parts[1] + "$" {
                if let digit = c.wholeNumberValue {
                    count = count * 10 + digit
                    continue
                }
                let state: OpeningHours.State = letter == "o" ? .open : letter == "u" ? .unknown : .closed
                states += Array(repeating: state, count: count)
                letter = c
                count = 0
            }
            return Vector(value: value, states: states)
        }
    }

    @Test("every value this reader understands is evaluated as the crate evaluates it, at every quarter hour of a week")
    func differential() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count > 700)
        var understood = 0
        var refused: [String] = []
        for vector in vectors {
            guard let hours = OpeningHours(vector.value) else {
                if vector.states != nil { refused.append(vector.value) }
                continue
            }
            guard let expected = vector.states else {
                Issue.record("understood a value the crate refuses: \(vector.value)")
                continue
            }
            understood += 1
            #expect(expected.count == 672, "\(vector.value)")
            for step in 0..<min(672, expected.count) {
                let got = hours.state(weekday: step / 96, minute: step % 96 * 15)
                if got != expected[step] {
                    Issue.record("\(vector.value): day \(step / 96) \(step % 96 / 4):\(step % 4 * 15) is \(got), the crate says \(expected[step])")
                    break
                }
            }
        }
        let valid = vectors.filter { $0.states != nil }.count
        print("opening hours: understood \(understood) of the \(valid) values the crate reads (\(vectors.count) vectors)")
        // The values outside the subset (month and date ranges, open ends, …) are treated as open by the callers.
        #expect(Double(understood) >= 0.9 * Double(valid), "understood \(understood) of \(valid); refused: \(refused.prefix(20))")
    }
}
