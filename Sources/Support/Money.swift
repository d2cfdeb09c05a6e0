/// An exact amount of money in nano-units (10⁻⁹) of one currency.
///
/// Nine decimals keep per-token costs exact and leave room for Int64 sums up to about
/// 9.2 billion units; every operation that could leave that range reports it instead of
/// wrapping. Reports print six decimals, rounded half to even from the exact amount.
package struct Money: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    package var nanos: Int64

    package static let decimals = 9
    package static let nanosPerUnit: Int64 = 1_000_000_000
    package static let zero = Money(nanos: 0)

    package init(nanos: Int64) {
        self.nanos = nanos
    }

    /// Apple's prices are integer milliunits of the currency: exact by construction.
    package init(milliunits: Int64) throws(MoneyError) {
        let (value, overflow) = milliunits.multipliedReportingOverflow(by: 1_000_000)
        if overflow { throw .outOfRange }
        self.nanos = value
    }

    package static func < (lhs: Money, rhs: Money) -> Bool { lhs.nanos < rhs.nanos }

    /// Rounded half to even to six decimals, the precision every report writes: amounts taken
    /// this way add up in the files exactly as they do inside.
    ///
    /// Throws when the rounded amount is past what money holds (within a micro-unit of the
    /// largest amount), so no input can make the rounding overflow.
    @inline(__always)
    package func roundedToMicros() throws(MoneyError) -> Money {
        let remainder = nanos % 1000
        if remainder == 0 { return self }
        var micros = nanos / 1000
        let twice = (remainder < 0 ? -remainder : remainder) * 2
        if twice > 1000 || (twice == 1000 && micros % 2 != 0) { micros += remainder < 0 ? -1 : 1 }
        let (rounded, overflow) = micros.multipliedReportingOverflow(by: 1000)
        if overflow { throw .outOfRange }
        return Money(nanos: rounded)
    }

    /// `self * numerator / denominator`, rounded half to even once, to the micro-unit: a
    /// conversion taken straight to six decimals, never through nine first (which would round
    /// 0.038775499672 up to 0.038775500 and then to 0.038776).
    package func scaledToMicros(by numerator: Int64, over denominator: Int64) throws(MoneyError) -> Money {
        precondition(denominator > 0, "denominator must be positive")
        let product = Int128(nanos) * Int128(numerator)
        let micros = Money.divideRoundingHalfToEven(product, by: Int128(denominator) * 1000)
        guard let result = Int64(exactly: micros * 1000) else { throw .outOfRange }
        return Money(nanos: result)
    }

    package func adding(_ other: Money) throws(MoneyError) -> Money {
        let (sum, overflow) = nanos.addingReportingOverflow(other.nanos)
        if overflow { throw .outOfRange }
        return Money(nanos: sum)
    }

    package func subtracting(_ other: Money) throws(MoneyError) -> Money {
        let (difference, overflow) = nanos.subtractingReportingOverflow(other.nanos)
        if overflow { throw .outOfRange }
        return Money(nanos: difference)
    }

    /// Multiplies by `numerator / denominator`, rounding half to even, without overflowing
    /// the intermediate product (it is computed in 128 bits).
    package func scaled(by numerator: Int64, over denominator: Int64) throws(MoneyError) -> Money {
        precondition(denominator > 0, "denominator must be positive")
        let product = Int128(nanos) * Int128(numerator)
        let quotient = Money.divideRoundingHalfToEven(product, by: Int128(denominator))
        guard let result = Int64(exactly: quotient) else { throw .outOfRange }
        return Money(nanos: result)
    }

    static func divideRoundingHalfToEven(_ value: Int128, by divisor: Int128) -> Int128 {
        var quotient = value / divisor
        let remainder = value % divisor
        let twiceRemainder = (remainder < 0 ? -remainder : remainder) * 2
        let sign: Int128 = (value < 0) != (divisor < 0) ? -1 : 1
        if twiceRemainder > divisor || (twiceRemainder == divisor && quotient % 2 != 0) {
            quotient += sign
        }
        return quotient
    }

    /// The amount with six decimals, as every report writes money.
    package var description: String { formatted(decimals: 6) }

    /// Rounds half to even to `decimals` (0...9) and writes `-123.456000`.
    package func formatted(decimals: Int) -> String {
        var bytes: [UInt8] = []
        append(to: &bytes, decimals: decimals)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func append(to bytes: inout [UInt8], decimals: Int = 6) {
        precondition((0...Money.decimals).contains(decimals), "decimals must be 0...9")
        var divisor: Int64 = 1
        for _ in 0..<(Money.decimals - decimals) { divisor *= 10 }
        let rounded = Money.divideRoundingHalfToEven(Int128(nanos), by: Int128(divisor))
        let negative = rounded < 0
        let magnitude = UInt64(negative ? -rounded : rounded)
        var unitScale: UInt64 = 1
        for _ in 0..<decimals { unitScale *= 10 }
        if negative { bytes.append(UInt8(ascii: "-")) }
        appendDigits(magnitude / unitScale, minimumWidth: 1, to: &bytes)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(magnitude % unitScale, minimumWidth: decimals, to: &bytes)
        }
    }
}

/// Why an amount was refused.
package enum MoneyError: Error, Sendable, Hashable, CustomStringConvertible {
    case notADecimal
    case outOfRange
    case moreDecimalsThanKept

    package var description: String {
        switch self {
        case .notADecimal: "not a plain decimal number (digits, optional sign and '.'; no exponent or separators)"
        case .outOfRange: "amount out of range (beyond ±9,223,372,036.854775)"
        case .moreDecimalsThanKept:
            "more than nine decimals, and the tool keeps nine exactly: the figures would not add up to what the file says "
                + "(round it to nine decimals where the file is written)"
        }
    }
}

extension Money {
    /// Parses a plain decimal from bytes: `[+-]digits[.digits]`, at least one digit.
    ///
    /// Digits past the ninth decimal are rounded half to even, which is far below any
    /// currency's smallest unit; everything else is exact. With `exactly`, a value with a
    /// digit other than 0 past the ninth decimal is refused instead: one the tool cannot hold.
    package static func parse(_ field: UnsafeRawBufferPointer, exactly: Bool = false) throws(MoneyError) -> Money {
        var index = 0
        let count = field.count
        var negative = false
        if count > 0 && (field[0] == UInt8(ascii: "-") || field[0] == UInt8(ascii: "+")) {
            negative = field[0] == UInt8(ascii: "-")
            index = 1
        }
        var units: Int64 = 0
        var digitsSeen = 0
        while index < count, let digit = decimalDigit(field[index]) {
            let (shifted, o1) = units.multipliedReportingOverflow(by: 10)
            let (added, o2) = shifted.addingReportingOverflow(Int64(digit))
            if o1 || o2 { throw .outOfRange }
            units = added
            digitsSeen += 1
            index += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundingDigit: UInt8 = 0
        var sticky = false
        if index < count && field[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, let digit = decimalDigit(field[index]) {
                if fractionDigits < Money.decimals {
                    fraction = fraction * 10 + Int64(digit)
                    fractionDigits += 1
                } else if fractionDigits == Money.decimals {
                    roundingDigit = digit
                    fractionDigits += 1
                } else if digit != 0 {
                    sticky = true
                }
                digitsSeen += 1
                index += 1
            }
        }
        guard index == count, digitsSeen > 0 else { throw .notADecimal }
        if exactly && (roundingDigit != 0 || sticky) { throw .moreDecimalsThanKept }
        for _ in min(fractionDigits, Money.decimals)..<Money.decimals { fraction *= 10 }
        if roundingDigit > 5 || (roundingDigit == 5 && (sticky || fraction % 2 != 0)) {
            fraction += 1
        }
        let (scaled, o1) = units.multipliedReportingOverflow(by: nanosPerUnit)
        let (magnitude, o2) = scaled.addingReportingOverflow(fraction)
        // Past the largest amount that still rounds to six decimals, an amount could not be
        // written: refused here, never an overflow later.
        if o1 || o2 || magnitude > Money.largestInput { throw .outOfRange }
        return Money(nanos: negative ? -magnitude : magnitude)
    }

    /// The largest amount an input may hold, in nanos: 9,223,372,036.854775.
    static let largestInput: Int64 = 9_223_372_036_854_775_000

    package static func parse(_ text: String) throws(MoneyError) -> Money {
        var text = text
        let result = text.withUTF8 { bytes in Result { () throws(MoneyError) in try parse(UnsafeRawBufferPointer(bytes)) } }
        return try result.get()
    }
}

@inlinable
package func decimalDigit(_ byte: UInt8) -> UInt8? {
    let digit = byte &- UInt8(ascii: "0")
    return digit < 10 ? digit : nil
}

/// Appends the decimal digits of `value`, left-padded with zeros to `minimumWidth`.
func appendDigits(_ value: UInt64, minimumWidth: Int, to bytes: inout [UInt8]) {
    var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
    withUnsafeMutableBytes(of: &scratch) { buffer in
        var position = buffer.count
        var remaining = value
        repeat {
            position -= 1
            buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        } while remaining > 0
        while buffer.count - position < minimumWidth {
            position -= 1
            buffer[position] = UInt8(ascii: "0")
        }
        bytes.append(contentsOf: buffer[position...])
    }
}
