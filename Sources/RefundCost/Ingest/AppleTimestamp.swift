/// A date as Apple writes it: integer milliseconds, fractional milliseconds in the Xcode
/// environment, or (in our own inputs) an ISO-8601 string. Fractions are truncated.
struct AppleTimestamp: Decodable, Sendable, Hashable {
    var value: Timestamp

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            value = Timestamp(milliseconds: integer)
        } else if let fractional = try? container.decode(Double.self), fractional.isFinite,
            abs(fractional) < 9e15
        {
            value = Timestamp(milliseconds: Int64(fractional.rounded(.down)))
        } else if let text = try? container.decode(String.self), let parsed = TimestampParser.parse(text) {
            value = parsed
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a date: expected milliseconds or an ISO-8601 string")
        }
    }
}

/// A value that Apple sends as a number in one place and a string in another (V1 receipts
/// write every number as a string).
struct LenientInteger: Decodable, Sendable, Hashable {
    var value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            value = integer
        } else if let text = try? container.decode(String.self), let integer = Int64(text) {
            value = integer
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer")
        }
    }
}
