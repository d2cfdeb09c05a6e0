/// Calendar months: report windows and generated subscriptions step by them.
extension CivilDate {
    /// The first day of the month `offset` months from `date`'s month.
    package static func firstOfMonth(_ date: CivilDate, offset: Int) -> CivilDate {
        let index = date.year * 12 + (date.month - 1) + Int64(offset)
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        return CivilDate(year: year, month: index - year * 12 + 1, day: 1) ?? date
    }

    /// The same day `count` months later, clamped to the month's last day (Jan 31 + 1 = Feb 28).
    package static func addingMonths(_ t: Timestamp, _ count: Int) -> Timestamp {
        let date = t.civilDate
        let first = firstOfMonth(date, offset: count)
        let day = min(date.day, daysIn(month: first.month, year: first.year))
        let target = CivilDate(year: first.year, month: first.month, day: day) ?? first
        return Timestamp(milliseconds: target.start.milliseconds + (t.milliseconds - date.start.milliseconds))
    }
}
