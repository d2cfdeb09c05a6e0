/// A length of time in milliseconds, written on the command line as `90s`, `15m`, `1h`, `2d`
/// or a sum of those such as `1h30m`.
package struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    package var milliseconds: Int64

    package init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    package static func seconds(_ n: Int64) -> TimeSpan { TimeSpan(milliseconds: n * 1000) }
    package static func minutes(_ n: Int64) -> TimeSpan { TimeSpan(milliseconds: n * 60_000) }
    package static func hours(_ n: Int64) -> TimeSpan { TimeSpan(milliseconds: n * 3_600_000) }
    package static func days(_ n: Int64) -> TimeSpan { TimeSpan(milliseconds: n * 86_400_000) }

    package static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The longest duration one term can write: 999,999,999 days.
    static let longest = TimeSpan.days(999_999_999)

    /// Parses `90s`, `15m`, `1h`, `2d`, `1h30m`, or `0`; nil for anything else.
    package init?(parsing text: String) {
        if text == "0" {
            self.init(milliseconds: 0)
            return
        }
        var total: Int64 = 0
        var number: Int64 = 0
        var digits = 0
        for byte in text.utf8 {
            if let digit = decimalDigit(byte) {
                guard number < 1_000_000_000 else { return nil }
                number = number * 10 + Int64(digit)
                digits += 1
                continue
            }
            let unit: Int64
            switch byte {
            case UInt8(ascii: "s"): unit = 1000
            case UInt8(ascii: "m"): unit = 60_000
            case UInt8(ascii: "h"): unit = 3_600_000
            case UInt8(ascii: "d"): unit = 86_400_000
            default: return nil
            }
            guard digits > 0 else { return nil }
            let (part, overflowPart) = number.multipliedReportingOverflow(by: unit)
            let (sum, overflowSum) = total.addingReportingOverflow(part)
            guard !overflowPart, !overflowSum else { return nil }
            total = sum
            number = 0
            digits = 0
        }
        // A sum of terms may not exceed what one term can write, so every duration parsed
        // prints as a spelling that parses back (`description` writes whole days first).
        guard digits == 0, !text.isEmpty, total <= TimeSpan.longest.milliseconds else { return nil }
        self.init(milliseconds: total)
    }

    /// The shortest exact spelling: `1h30m`, `90s`, `0`.
    package var description: String {
        if milliseconds == 0 { return "0" }
        var remaining = milliseconds
        var text = ""
        for (unit, suffix) in [(Int64(86_400_000), "d"), (3_600_000, "h"), (60_000, "m"), (1000, "s")] {
            if remaining >= unit {
                text += "\(remaining / unit)\(suffix)"
                remaining %= unit
            }
        }
        if remaining > 0 { text += "\(remaining)ms" }
        return text
    }
}
