import Attribution
import Support

/// How the page writes figures and names for people: two decimals with grouped thousands,
/// words instead of the CSV files' snake_case, HTML escaping.
enum PageText {
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// `October 2026` for a calendar month, else `3 to 17 October 2026` (the last day included).
    static func periodName(_ window: ReportWindow) -> String {
        let start = window.start.civilDate
        if window.isCalendarMonth { return "\(monthNames[Int(start.month) - 1]) \(start.year)" }
        return days(window)
    }

    /// `1 to 31 October 2026`, `28 September to 4 October 2026`, `1 December 2026 to 6 January 2027`:
    /// the window's days as a person says them, the last one included.
    static func days(_ window: ReportWindow) -> String {
        let first = window.start.civilDate
        let last = CivilDate(dayNumber: Timestamp(milliseconds: window.end.milliseconds - 1).civilDate.dayNumber)
        if first == last { return dateName(first) }
        if first.year != last.year { return "\(dateName(first)) to \(dateName(last))" }
        if first.month != last.month { return "\(first.day) \(monthNames[Int(first.month) - 1]) to \(dateName(last))" }
        return "\(first.day) to \(dateName(last))"
    }

    /// `1 October 2026`.
    static func dateName(_ date: CivilDate) -> String { "\(date.day) \(monthNames[Int(date.month) - 1]) \(date.year)" }

    /// `1 November 2026, 00:00 UTC` (seconds shown only when there are any).
    static func timeName(_ time: Timestamp) -> String {
        let dayMilliseconds: Int64 = 86_400_000
        let ofDay = ((time.milliseconds % dayMilliseconds) + dayMilliseconds) % dayMilliseconds
        let hours = ofDay / 3_600_000, minutes = ofDay / 60_000 % 60, seconds = ofDay / 1000 % 60
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = "\(two(hours)):\(two(minutes))" + (seconds > 0 ? ":\(two(seconds))" : "")
        return "\(dateName(time.civilDate)), \(clock) UTC"
    }

    static func monthName(_ month: CivilMonth) -> String { "\(monthNames[Int(month.month) - 1]) \(month.year)" }

    /// `Oct 2026`, for chart axes.
    static func shortMonthName(_ month: CivilMonth) -> String { "\(monthNames[Int(month.month) - 1].prefix(3)) \(month.year)" }

    /// `12,345.67`: two decimals, thousands grouped (the CSV files keep six).
    static func money(_ value: Money, decimals: Int = 2) -> String {
        let text = value.formatted(decimals: decimals)
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".")
        return (negative ? "−" : "") + HumanText.grouped(parts[0]) + (parts.count > 1 ? "." + parts[1] : "")
    }

    static func amount(_ value: Money, _ currency: String) -> String { money(value) + " " + currency }

    static func count(_ value: Int) -> String { HumanText.count(value) }

    /// The text with its first letter in capitals, for a sentence.
    static func sentenceCase(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// `3 refunds`, `1 refund`.
    static func counted(_ value: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count(value)) \(value == 1 ? noun : plural ?? noun + "s")"
    }

    /// `12.3%`, exact from integers; `–` when the whole is zero.
    static func percent(_ part: Int64, of whole: Int64) -> String {
        guard whole != 0 else { return "–" }
        let tenths = (Int128(part) * 1000 + Int128(whole) / 2) / Int128(whole)
        let value = Int64(tenths)
        return "\(value < 0 ? "-" : "")\(abs(value) / 10).\(abs(value % 10))%"
    }

    /// One decimal place for SVG coordinates.
    static func coordinate(_ value: Double) -> String {
        let scaled = Int64((value * 10).rounded())
        let sign = scaled < 0 ? "-" : ""
        return "\(sign)\(abs(scaled) / 10).\(abs(scaled) % 10)"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `after refund` for `after_refund`, `unintended purchase` for `UNINTENDED_PURCHASE`: the
    /// CSV files keep the codes; people read words.
    static func words(_ code: String) -> String {
        if let known = phrases[code] { return known }
        return String(code.lowercased().map { $0 == "_" ? " " : $0 })
    }

    private static let phrases: [String: String] = [
        "refund_full": "refund", "refund_prorated": "partial refund", "family_refund": "purchaser refunded",
        "family_exit": "left the family", "expiry": "expired", "family_shared": "family shared",
        "billing_grace": "billing grace, unpaid", "GRANT_FULL": "grant in full", "GRANT_PRORATED": "grant in part",
        "DECLINE": "decline", "NO_PREFERENCE": "no preference", "P1W": "week", "P1M": "month", "P2M": "2 months",
        "P3M": "3 months", "P6M": "6 months", "P1Y": "year",
    ]

    static func words(_ costClass: CostClass) -> String { words(costClass.reportName) }
}
