import ArgumentParser
import ChainImport
import Foundation
import Geo

/// Parses `LAT LON` positional arguments, which may be negative (`-74.006` would otherwise read as an option).
/// They are collected as unrecognised arguments, which keeps a `--` before them (`oncue nearest --db S -- 40.7 -74.0`):
/// the first `--` ends the options, as in every other command, and is not a value.
func parseCoordinate(_ arguments: [String]) throws -> Coordinate {
    var values = arguments
    let terminator = values.firstIndex(of: "--")
    // Before `--`, a negative number starts with a minus and a digit (or a point); anything else with a leading minus
    // is an option this command does not have, which would otherwise be reported as a malformed coordinate.
    let options = values[..<(terminator ?? values.endIndex)].filter { value in
        guard value.hasPrefix("-"), let next = value.dropFirst().first else { return false }
        return !next.isNumber && next != "."
    }
    if let option = options.first { throw ValidationError("unknown option '\(option.forMessage())' (see --help for the options)") }
    if let terminator { values.remove(at: terminator) }
    var numbers = values
    if numbers.count == 1, numbers[0].contains(",") {
        numbers = numbers[0].split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    }
    guard numbers.count == 2 else {
        throw ValidationError("expected LAT LON (two numbers), got \(values.isEmpty ? "nothing" : values.joined(separator: " "))")
    }
    guard let lat = DecimalNumber.parse(numbers[0]) else { throw ValidationError("latitude '\(numbers[0].forMessage())' is not a number") }
    guard let lon = DecimalNumber.parse(numbers[1]) else { throw ValidationError("longitude '\(numbers[1].forMessage())' is not a number") }
    do {
        return try Coordinate(latitude: lat, longitude: lon)
    } catch {
        throw ValidationError(error.description)
    }
}
