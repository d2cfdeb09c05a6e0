/// Parses the timestamp forms the inputs use, straight from bytes.
///
/// Accepted: integer epoch milliseconds; `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD HH:MM:SS`, with an
/// optional fraction of 1-9 digits (truncated to the millisecond, as Apple's own dates are) and
/// an optional zone `Z`, `±HH:MM`, `±HHMM` or `±HH`; no zone means UTC.
package enum TimestampParser {
    package static func parse(_ field: UnsafeRawBufferPointer) -> Timestamp? {
        guard !field.isEmpty else { return nil }
        // A calendar form never starts with four digits and no dash; an epoch is digits only.
        if let epoch = parseEpochMilliseconds(field) { return Timestamp(milliseconds: epoch) }
        return parseCalendar(field)
    }

    /// Parses an input timestamp and checks it is one an input may hold: between 1970 and
    /// 2200, and not epoch seconds where milliseconds were meant.
    package static func parseInput(_ field: UnsafeRawBufferPointer) -> Result<Timestamp, TimestampError> {
        guard let timestamp = parse(field) else { return .failure(.notATimestamp) }
        if isEpochDigits(field) && timestamp.milliseconds < TimestampError.smallestMilliseconds {
            return .failure(.epochSeconds)
        }
        return TimestampError.check(timestamp).map { .failure($0) } ?? .success(timestamp)
    }

    /// True for a field of digits only (an epoch number, not a calendar form).
    private static func isEpochDigits(_ field: UnsafeRawBufferPointer) -> Bool {
        !field.isEmpty && field.allSatisfy { decimalDigit($0) != nil }
    }

    package static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// `YYYY-MM-DD` alone, for exchange-rate dates and command-line dates.
    package static func parseDate(_ field: UnsafeRawBufferPointer) -> CivilDate? {
        guard field.count == 10, let date = parseDatePart(field) else { return nil }
        return date
    }

    package static func parseDate(_ text: String) -> CivilDate? {
        var text = text
        return text.withUTF8 { parseDate(UnsafeRawBufferPointer($0)) }
    }

    private static func parseEpochMilliseconds(_ field: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        var negative = false
        if field[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < field.count else { return nil }
        var value: Int64 = 0
        while index < field.count {
            guard let digit = decimalDigit(field[index]) else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (added, o2) = shifted.addingReportingOverflow(Int64(digit))
            if o1 || o2 { return nil }
            value = added
            index += 1
        }
        return negative ? -value : value
    }

    private static func parseDatePart(_ field: UnsafeRawBufferPointer) -> CivilDate? {
        guard field.count >= 10, field[4] == UInt8(ascii: "-"), field[7] == UInt8(ascii: "-"),
            let year = fixedDigits(field, 0, 4), let month = fixedDigits(field, 5, 2),
            let day = fixedDigits(field, 8, 2)
        else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }

    private static func parseCalendar(_ field: UnsafeRawBufferPointer) -> Timestamp? {
        guard field.count >= 19, let date = parseDatePart(field),
            field[10] == UInt8(ascii: "T") || field[10] == UInt8(ascii: " ") || field[10] == UInt8(ascii: "t"),
            field[13] == UInt8(ascii: ":"), field[16] == UInt8(ascii: ":"),
            let hour = fixedDigits(field, 11, 2), let minute = fixedDigits(field, 14, 2),
            let second = fixedDigits(field, 17, 2), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if index < field.count && field[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < field.count, let digit = decimalDigit(field[index]) {
                if digits < 3 { millis = millis * 10 + Int64(digit) }
                digits += 1
                index += 1
            }
            guard (1...9).contains(digits) else { return nil }
            for _ in min(digits, 3)..<3 { millis *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if index < field.count {
            let marker = field[index]
            if marker == UInt8(ascii: "Z") || marker == UInt8(ascii: "z") {
                index += 1
            } else if marker == UInt8(ascii: "+") || marker == UInt8(ascii: "-") {
                guard let offset = parseOffset(field, from: index + 1) else { return nil }
                offsetMinutes = marker == UInt8(ascii: "-") ? -offset.minutes : offset.minutes
                index = offset.end
            } else {
                return nil
            }
        }
        guard index == field.count else { return nil }
        let seconds = date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Timestamp(milliseconds: seconds * 1000 + millis)
    }

    /// `HH:MM`, `HHMM` or `HH` after the sign; returns minutes and the index after it.
    private static func parseOffset(_ field: UnsafeRawBufferPointer, from start: Int) -> (minutes: Int64, end: Int)? {
        guard let hours = fixedDigits(field, start, 2), hours <= 23 else { return nil }
        var index = start + 2
        var minutes: Int64 = 0
        if index < field.count {
            if field[index] == UInt8(ascii: ":") { index += 1 }
            guard let parsed = fixedDigits(field, index, 2), parsed < 60 else { return nil }
            minutes = parsed
            index += 2
        }
        return (hours * 60 + minutes, index)
    }

    @inline(__always)
    private static func fixedDigits(_ field: UnsafeRawBufferPointer, _ start: Int, _ width: Int) -> Int64? {
        guard start + width <= field.count else { return nil }
        var value: Int64 = 0
        for index in start..<(start + width) {
            guard let digit = decimalDigit(field[index]) else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }
}

/// Why a value is not a timestamp an input may hold.
package enum TimestampError: Error, Sendable, Hashable, CustomStringConvertible {
    case notATimestamp
    /// A number below 10^11: that is March 1973 in milliseconds, but 5138 in seconds.
    case epochSeconds
    case outOfRange

    /// Epoch numbers below this are seconds, not milliseconds.
    static let smallestMilliseconds: Int64 = 100_000_000_000

    /// The problem with an already parsed time (a JSON number), if any.
    package static func check(_ timestamp: Timestamp) -> TimestampError? {
        if timestamp.milliseconds >= 0 && timestamp.milliseconds < smallestMilliseconds { return .epochSeconds }
        return timestamp.isInAcceptedRange ? nil : .outOfRange
    }

    package var description: String {
        switch self {
        case .notATimestamp:
            "not a timestamp (use ISO-8601 like 2026-10-05T14:30:00Z, '2026-10-05 14:30:00' in UTC, or epoch milliseconds)"
        case .epochSeconds:
            "looks like epoch seconds; timestamps are epoch milliseconds (multiply by 1000) or ISO-8601"
        case .outOfRange:
            "outside 1970-01-01 to 2200-01-01; check the value"
        }
    }
}
