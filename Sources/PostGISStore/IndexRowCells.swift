import Geo
import LocationStore
import NIOCore
import PostgresNIO

/// The cells of a row read in order, straight from their bytes in the binary format PostgresNIO asks for: at a million
/// rows the generic tuple decode was a third of a cold start. Any other type or format goes through the generic decode.
struct IndexRowCells {
    private var iterator: PostgresRow.Iterator

    init(_ row: PostgresRow) { iterator = row.makeIterator() }

    private mutating func next() throws -> PostgresCell {
        guard let cell = iterator.next() else { throw StoreError.invalidArgument("a row has fewer columns than selected") }
        return cell
    }

    mutating func optionalText() throws -> String? {
        let cell = try next()
        guard var bytes = cell.bytes else { return nil }
        if cell.format == .binary, cell.dataType == .text || cell.dataType == .varchar {
            return bytes.readString(length: bytes.readableBytes)
        }
        return try cell.decode(String.self)
    }

    mutating func text() throws -> String {
        guard let value = try optionalText() else { throw StoreError.invalidArgument("a NOT NULL text column is null") }
        return value
    }

    mutating func optionalDouble() throws -> Double? {
        let cell = try next()
        guard var bytes = cell.bytes else { return nil }
        if cell.format == .binary, cell.dataType == .float8, let bits = bytes.readInteger(endianness: .big, as: UInt64.self) {
            return Double(bitPattern: bits)
        }
        return try cell.decode(Double.self)
    }

    mutating func double() throws -> Double {
        guard let value = try optionalDouble() else { throw StoreError.invalidArgument("a NOT NULL number column is null") }
        return value
    }
}
