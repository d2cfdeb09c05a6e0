extension Money {
    /// An amount that may be written in exponent form (`1.5e-07`).
    ///
    /// JavaScript and Python print small numbers so in the exports of LLM gateways. Rounded
    /// half to even to nine decimals like any other amount. The exponent is moved into the digits first, so the
    /// value is exact: never through a `Double`.
    package static func parseAllowingExponent(_ field: UnsafeRawBufferPointer) throws(MoneyError) -> Money {
        guard let marker = field.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
            return try parse(field)
        }
        var exponent = 0
        var index = marker + 1
        var negativeExponent = false
        if index < field.count, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") {
            negativeExponent = field[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < field.count else { throw .notADecimal }
        while index < field.count {
            guard let digit = decimalDigit(field[index]), exponent < 100 else { throw .notADecimal }
            exponent = exponent * 10 + Int(digit)
            index += 1
        }
        if negativeExponent { exponent = -exponent }
        var sign: [UInt8] = []
        var digits: [UInt8] = []
        var pointAt: Int?
        for (offset, byte) in field[..<marker].enumerated() {
            if offset == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                sign = [byte]
            } else if byte == UInt8(ascii: "."), pointAt == nil {
                pointAt = digits.count
            } else if decimalDigit(byte) != nil {
                digits.append(byte)
            } else {
                throw .notADecimal
            }
        }
        guard !digits.isEmpty else { throw .notADecimal }
        let point = (pointAt ?? digits.count) + exponent
        var plain = sign
        if point <= 0 {
            plain += Array("0.".utf8) + Array(repeating: UInt8(ascii: "0"), count: -point) + digits
        } else if point >= digits.count {
            plain += digits + Array(repeating: UInt8(ascii: "0"), count: point - digits.count)
        } else {
            plain += digits[..<point] + [UInt8(ascii: ".")] + digits[point...]
        }
        let parsed: Result<Money, MoneyError> = plain.withUnsafeBytes { raw in
            do throws(MoneyError) { return .success(try parse(raw)) } catch { return .failure(error) }
        }
        return try parsed.get()
    }
}
