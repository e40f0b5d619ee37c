import ArgumentParser
import Foundation
import Geo

/// Parses `LAT LON` positional arguments, which may be negative (`-74.006` would otherwise read as an option).
func parseCoordinate(_ values: [String]) throws -> Coordinate {
    var numbers = values
    if numbers.count == 1, numbers[0].contains(",") {
        numbers = numbers[0].split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    }
    guard numbers.count == 2 else {
        throw ValidationError("expected LAT LON (two numbers), got \(values.isEmpty ? "nothing" : values.joined(separator: " "))")
    }
    guard let lat = Double(numbers[0]) else { throw ValidationError("latitude '\(numbers[0])' is not a number") }
    guard let lon = Double(numbers[1]) else { throw ValidationError("longitude '\(numbers[1])' is not a number") }
    do {
        return try Coordinate(latitude: lat, longitude: lon)
    } catch {
        throw ValidationError(error.description)
    }
}
