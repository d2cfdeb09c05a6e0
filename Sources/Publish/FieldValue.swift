import Report
import Support

/// One field of an output file, checked against its column's kind and ready for either
/// database: `text` is what PostgreSQL reads (the file's own spelling, which its types
/// accept), `integer` what SQLite stores for money (micro-units), counts and booleans.
package enum FieldValue: Equatable {
    case null
    case text(String)
    case integer(Int64, text: String)
    case real(Double, text: String)

    /// Checks `field` as a value of `kind`; an empty field is NULL for every kind but text,
    /// where it is the empty string only when the file means "none" (so NULL as well).
    package static func checked(_ field: String, as kind: ColumnKind) throws(FieldValueError) -> FieldValue {
        if field.isEmpty { return .null }
        switch kind {
        case .text, .json:
            return .text(unguarded(field))
        case .money:
            return .integer(try micros(field), text: field)
        case .count:
            guard let value = Int64(field) else { throw FieldValueError("not a whole number") }
            return .integer(value, text: field)
        case .rate:
            guard isDecimal(field), let value = Double(field) else { throw FieldValueError("not a decimal number") }
            return .real(value, text: field)
        case .timestamp:
            guard field.utf8.count == 24, field.hasSuffix("Z"), TimestampParser.parse(field) != nil else {
                throw FieldValueError("not a UTC timestamp like 2026-10-01T00:00:00.000Z")
            }
            return .text(field)
        case .date:
            guard field.utf8.count == 10, TimestampParser.parseDate(field) != nil else {
                throw FieldValueError("not a date like 2026-10-01")
            }
            return .text(field)
        case .boolean:
            switch field {
            case "true": return .integer(1, text: "true")
            case "false": return .integer(0, text: "false")
            default: throw FieldValueError("not true or false")
            }
        }
    }

    /// The files put a `'` before text a spreadsheet would run as a formula; a database runs
    /// nothing, so the value is loaded as it was.
    static func unguarded(_ field: String) -> String {
        let bytes = field.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "'"),
            let second = bytes.dropFirst().first, CSVEncoding.startsFormula(second)
        else { return field }
        return String(field.dropFirst())
    }

    /// `-12.345678` (exactly six decimals, as every output writes money) in micro-units.
    static func micros(_ field: String) throws(FieldValueError) -> Int64 {
        var bytes = Array(field.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes.removeFirst() }
        guard let point = bytes.firstIndex(of: UInt8(ascii: ".")), point > 0, bytes.count - point - 1 == 6,
            point <= 14
        else { throw FieldValueError("not an amount with six decimals like 12.345678") }
        var value: Int64 = 0
        for (index, byte) in bytes.enumerated() where index != point {
            guard let digit = decimalDigit(byte) else { throw FieldValueError("not an amount with six decimals like 12.345678") }
            value = value * 10 + Int64(digit)
        }
        return negative ? -value : value
    }

    private static func isDecimal(_ field: String) -> Bool {
        var seenPoint = false
        for (index, byte) in field.utf8.enumerated() {
            if byte == UInt8(ascii: "-"), index == 0 { continue }
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            if decimalDigit(byte) == nil { return false }
        }
        return true
    }
}

/// Why a field does not hold what its column should.
package struct FieldValueError: Error {
    package let reason: String
    init(_ reason: String) { self.reason = reason }
}
