import ArgumentParser
import ChainImport
import Foundation
import Geo

/// Parses `LAT LON` positional arguments, which may be negative (`-74.006` would otherwise read as an option).
/// They are collected as unrecognised arguments, which keeps a `--` before them (`oncue nearest --db S -- 40.7 -74.0`):
/// the first `--` ends the options, as in every other command, and is not a value.
func parseCoordinate(_ arguments: [String], of command: any ParsableCommand.Type) throws -> Coordinate {
    // An option this command does not have lands here too; it is reported as one, not as a malformed coordinate.
    try UnknownOption.check(arguments, of: command)
    var values = arguments
    if let terminator = values.firstIndex(of: "--") { values.remove(at: terminator) }
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
