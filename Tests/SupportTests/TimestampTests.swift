import Testing

@testable import Support
@testable import TestSupport

@Suite("Timestamps, dates and durations from bytes")
struct TimestampTests {
    // 2026-10-05T14:30:00Z = 1_791_210_600_000 ms (20,731 days after the epoch, plus 52,200 s).
    @Test(arguments: [
        "2026-10-05T14:30:00Z", "2026-10-05T14:30:00.000Z", "2026-10-05 14:30:00", "2026-10-05T14:30:00",
        "2026-10-05T16:30:00+02:00", "2026-10-05T16:30:00+0200", "2026-10-05T16:30:00+02", "2026-10-05T09:30:00-05:00",
        "2026-10-05 14:30:00.000000", "1791210600000", "2026-10-05t14:30:00z",
    ])
    func everyFormReadsTheSameInstant(text: String) {
        #expect(TimestampParser.parse(text)?.milliseconds == 1_791_210_600_000)
    }

    @Test func fractionsAreTruncatedToTheMillisecond() {
        #expect(TimestampParser.parse("2026-10-05T14:30:00.1Z")?.milliseconds == 1_791_210_600_100)
        #expect(TimestampParser.parse("2026-10-05T14:30:00.123456Z")?.milliseconds == 1_791_210_600_123)
        #expect(TimestampParser.parse("2026-10-05 14:30:00.999999")?.milliseconds == 1_791_210_600_999)
    }

    @Test func leapYears() {
        #expect(TimestampParser.parse("2024-02-29T00:00:00Z")?.milliseconds == 1_709_164_800_000)
        #expect(TimestampParser.parse("2000-02-29T00:00:00Z") != nil)
        #expect(TimestampParser.parse("2100-02-29T00:00:00Z") == nil)
        #expect(TimestampParser.parse("2026-02-29T00:00:00Z") == nil)
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31 00:00:00",
        "2026-10-05T24:00:00Z", "2026-10-05T12:60:00Z", "2026-10-05T12:00:60Z", "2026-10-05", "2026/10/05 10:00:00",
        "2026-10-05T10:00:00.Z", "2026-10-05T10:00:00+25:00", "2026-10-05T10:00:00 UTC", "", "12a", "-",
    ])
    func rejectsInvalidTimestamps(text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func formatsTheReportForm() {
        #expect(Timestamp(milliseconds: 1_791_210_600_123).description == "2026-10-05T14:30:00.123Z")
        #expect(Timestamp(milliseconds: 0).description == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(milliseconds: -1).description == "1969-12-31T23:59:59.999Z")
    }

    @Test func civilDatesRoundTripOverFourCenturies() {
        var day: Int64 = -200_000
        while day < 200_000 {
            let date = CivilDate(dayNumber: day)
            #expect(date.dayNumber == day)
            #expect(TimestampParser.parseDate(date.description) == date)
            day += 97
        }
    }

    @Test func datesAlone() {
        #expect(TimestampParser.parseDate("2026-10-05")?.start.milliseconds == 1_791_158_400_000)
        #expect(TimestampParser.parseDate("2026-02-30") == nil)
        #expect(TimestampParser.parseDate("2026-10-05T00:00:00Z") == nil)
    }

    @Test(arguments: [
        ("90s", Int64(90_000)), ("15m", 900_000), ("1h", 3_600_000), ("2d", 172_800_000), ("1h30m", 5_400_000), ("0", 0),
    ])
    func durations(text: String, milliseconds: Int64) {
        #expect(TimeSpan(parsing: text)?.milliseconds == milliseconds)
    }

    @Test(arguments: ["", "h", "1", "1x", "1.5h", "-1h", "1h30"])
    func rejectsInvalidDurations(text: String) {
        #expect(TimeSpan(parsing: text) == nil)
    }

    /// Found by fuzzing: two terms of 999,999,999 days summed past what one term can write, so
    /// the sum printed as a spelling that did not parse back.
    @Test func aDurationLongerThanOneTermCanWriteIsRefused() {
        #expect(TimeSpan(parsing: "999999999d999999999d") == nil)
        #expect(TimeSpan(parsing: "999999999d1s") == nil)
        let longest = TimeSpan(parsing: "999999999d")
        #expect(longest == TimeSpan.days(999_999_999))
        #expect(longest.flatMap { TimeSpan(parsing: $0.description) } == longest)
    }

    @Test func durationsPrintTheirShortestSpelling() {
        #expect(TimeSpan.hours(1).description == "1h")
        #expect(TimeSpan(milliseconds: 5_400_000).description == "1h30m")
        #expect(TimeSpan.days(2).description == "2d")
    }
}
