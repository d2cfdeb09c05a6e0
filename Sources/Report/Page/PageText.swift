import Attribution
import Support

/// How the page writes figures and names for people: two decimals with grouped thousands,
/// words instead of the CSV files' snake_case, HTML escaping.
enum PageText {
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// `October 2026` for a calendar month, else `2026-10-03 to 2026-10-17`.
    static func periodName(_ window: ReportWindow) -> String {
        let start = window.start.civilDate
        if window.isCalendarMonth { return "\(monthNames[Int(start.month) - 1]) \(start.year)" }
        return "\(start) to \(window.end.civilDate)"
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
