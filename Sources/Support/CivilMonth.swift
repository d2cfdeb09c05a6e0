/// A calendar month, UTC: the unit of `trend.csv`.
///
/// Months are counted from year 0, so consecutive months are consecutive numbers.
package struct CivilMonth: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// `year * 12 + month - 1`.
    package var number: Int64

    package init(number: Int64) {
        self.number = number
    }

    package init(_ date: CivilDate) {
        number = date.year * 12 + date.month - 1
    }

    /// The month that holds `t`.
    package init(_ t: Timestamp) {
        self.init(t.civilDate)
    }

    package var year: Int64 { number >= 0 ? number / 12 : (number - 11) / 12 }
    package var month: Int64 { number - year * 12 + 1 }

    /// `2026-10`.
    package var description: String {
        let digits = String(year)
        let month = String(month)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-" + (month.count == 1 ? "0" : "") + month
    }

    package static func < (a: CivilMonth, b: CivilMonth) -> Bool { a.number < b.number }
}
