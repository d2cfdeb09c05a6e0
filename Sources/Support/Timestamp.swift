/// A point in time as integer milliseconds since 1970-01-01T00:00:00Z, the unit Apple uses.
package struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    package var milliseconds: Int64

    package init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    package static let millisecondsPerDay: Int64 = 86_400_000

    /// The range of times inputs may hold: 1970-01-01 up to 2200-01-01.
    ///
    /// Anything outside is a mistake (seconds read as milliseconds, a sentinel value), and keeping
    /// every time in it keeps all date arithmetic far from the limits of Int64.
    package static let earliestAccepted = Timestamp(milliseconds: 0)
    package static let latestAccepted = Timestamp(milliseconds: 7_258_118_400_000)

    package var isInAcceptedRange: Bool { self >= .earliestAccepted && self <= .latestAccepted }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    package func adding(_ duration: TimeSpan) -> Timestamp {
        Timestamp(milliseconds: milliseconds + duration.milliseconds)
    }

    /// Days since 1970-01-01 (floor, so times before the epoch land on the right day).
    package var dayNumber: Int64 {
        milliseconds >= 0
            ? milliseconds / Timestamp.millisecondsPerDay
            : (milliseconds - Timestamp.millisecondsPerDay + 1) / Timestamp.millisecondsPerDay
    }

    package var civilDate: CivilDate { CivilDate(dayNumber: dayNumber) }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, the form every report writes.
    package var description: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func append(to bytes: inout [UInt8]) {
        let day = dayNumber
        let inDay = UInt64(milliseconds - day * Timestamp.millisecondsPerDay)
        CivilDate(dayNumber: day).append(to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(inDay / 3_600_000, minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(inDay / 60_000 % 60, minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(inDay / 1000 % 60, minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(inDay % 1000, minimumWidth: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }
}

/// A calendar date in the proleptic Gregorian calendar, UTC.
package struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var year: Int64
    package var month: Int64
    package var day: Int64

    package init?(year: Int64, month: Int64, day: Int64) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01 (Howard Hinnant's civil-from-days).
    package init(dayNumber: Int64) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
    package var dayNumber: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    package var start: Timestamp { Timestamp(milliseconds: dayNumber * Timestamp.millisecondsPerDay) }

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    package static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    package var description: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func append(to bytes: inout [UInt8]) {
        appendDigits(UInt64(max(0, year)), minimumWidth: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(month), minimumWidth: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(UInt64(day), minimumWidth: 2, to: &bytes)
    }
}
