import Testing

@testable import Support
@testable import TestSupport

@Suite("Money: exact fixed point")
struct MoneyTests {
    @Test(arguments: [
        ("0", "0.000000"), ("1", "1.000000"), ("-2.5", "-2.500000"), ("+3.25", "3.250000"),
        (".5", "0.500000"), ("7.", "7.000000"), ("0.000001", "0.000001"), ("123456789.123456", "123456789.123456"),
        ("9223372036.854775", "9223372036.854775"), ("-9223372036.854775", "-9223372036.854775"),
    ])
    func parsesAndFormatsSixDecimals(input: String, expected: String) throws {
        #expect(try Money.parse(input).description == expected)
    }

    @Test func keepsNineDecimalsExactly() throws {
        #expect(try Money.parse("0.000000001").nanos == 1)
        #expect(try Money.parse("12.345678912").nanos == 12_345_678_912)
        #expect(try Money.parse("12.345678912").formatted(decimals: 9) == "12.345678912")
    }

    /// Past the ninth decimal, rounding is half to even; the sticky digits decide ties.
    @Test(arguments: [
        ("0.0000000015", Int64(2)), ("0.0000000025", 2), ("0.00000000250001", 3), ("0.0000000014999", 1),
        ("-0.0000000015", -2),
    ])
    func roundsHalfToEvenBeyondNineDecimals(input: String, nanos: Int64) throws {
        #expect(try Money.parse(input).nanos == nanos)
    }

    /// Printing six decimals rounds half to even too: 0.0000005 -> 0.000000, 0.0000015 -> 0.000002.
    @Test(arguments: [
        (Int64(500), "0.000000"), (1500, "0.000002"), (2500, "0.000002"), (2501, "0.000003"), (-1500, "-0.000002"),
        (-400, "0.000000"),
    ])
    func formattingRoundsHalfToEven(nanos: Int64, expected: String) {
        #expect(Money(nanos: nanos).description == expected)
    }

    @Test(arguments: ["", "-", ".", "1,5", "1e5", "12 ", "abc", "1.2.3", "--1", "0x10"])
    func rejectsWhatIsNotAPlainDecimal(input: String) {
        #expect(throws: MoneyError.notADecimal) { try Money.parse(input) }
    }

    @Test func overflowIsReportedNotWrapped() throws {
        #expect(throws: MoneyError.outOfRange) { try Money.parse("9223372037") }
        #expect(throws: MoneyError.outOfRange) { try Money.parse("99999999999999999999") }
        let big = try Money.parse("9000000000")
        #expect(throws: MoneyError.outOfRange) { try big.adding(big) }
        #expect(throws: MoneyError.outOfRange) { try Money(milliunits: Int64.max / 1000) }
    }

    @Test func appleMilliunitsConvertExactly() throws {
        #expect(try Money(milliunits: 9990).description == "9.990000")
        #expect(try Money(milliunits: -1).formatted(decimals: 9) == "-0.001000000")
    }

    @Test func scalingRoundsHalfToEvenWithoutIntermediateOverflow() throws {
        // 9.99 * 33333 / 100000 = 3.3299667 exactly.
        #expect(try Money.parse("9.99").scaled(by: 33_333, over: 100_000).formatted(decimals: 9) == "3.329966700")
        // A product beyond Int64 in the middle still gives the exact result.
        #expect(try Money.parse("9000000000").scaled(by: 1_000_000_000, over: 1_000_000_000).description == "9000000000.000000")
        #expect(try Money(nanos: 5).scaled(by: 1, over: 2).nanos == 2)
        #expect(try Money(nanos: 7).scaled(by: 1, over: 2).nanos == 4)
    }

    @Test func roundTripsThroughText() throws {
        var generator = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let nanos = Int64(bitPattern: generator.next()) % 1_000_000_000_000_000
            let money = Money(nanos: nanos)
            #expect(try Money.parse(money.formatted(decimals: 9)) == money)
        }
    }

    /// Half to even at the sixth decimal, on both sides of zero; whole micro-units unchanged.
    @Test func roundsToMicrosHalfToEven() throws {
        let cases: [(Int64, Int64)] = [
            (1_234_567_499, 1_234_567_000), (1_234_567_500, 1_234_568_000), (1_234_568_500, 1_234_568_000),
            (1_234_567_501, 1_234_568_000), (-1_500, -2_000), (-2_500, -2_000), (-2_501, -3_000), (499, 0),
            (7_000, 7_000), (0, 0),
        ]
        for (nanos, expected) in cases { #expect(try Money(nanos: nanos).roundedToMicros().nanos == expected, "\(nanos)") }
        #expect(throws: MoneyError.outOfRange) { try Money(nanos: Int64.max).roundedToMicros() }
    }

    /// A conversion rounded once: 0.035672 x 1.087001 = 0.038775499672, so 0.038775.
    @Test func scalesToMicrosRoundingOnce() throws {
        let amount = try Money.parse("0.035672")
        #expect(try amount.scaledToMicros(by: try Money.parse("1.087001").nanos, over: Money.nanosPerUnit).nanos == 38_775_000)
        #expect(
            try amount.scaled(by: try Money.parse("1.087001").nanos, over: Money.nanosPerUnit).roundedToMicros().nanos
                == 38_776_000)
    }
}
