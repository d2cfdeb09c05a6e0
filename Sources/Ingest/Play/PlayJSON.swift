import Support

extension Result where Failure == JSONError {
    /// The value `body` reads, or the JSON error it throws (any other error as one).
    init(reading body: () throws -> Success) {
        do {
            self = .success(try body())
        } catch let error as JSONError {
            self = .failure(error)
        } catch {
            self = .failure(JSONError(reason: "\(error)", field: ""))
        }
    }
}

extension JSONCursor {
    /// An int64 as Google writes one, in a string (`"1234"`), or as a number; nil for null.
    package mutating func optionalLenientInteger() throws -> Int64? {
        if null() { return nil }
        return try wholeNumber()
    }

    /// A whole number, in a string or not: `1.9` or `"4.99"` is refused, never cut to 1 or 4.
    package mutating func wholeNumber() throws -> Int64 {
        let text = isString() ? try string() : String(decoding: try valueBytes(), as: UTF8.self)
        guard let value = Int64(text), text.first != "+" else { throw JSONError(reason: "not a whole number", field: "") }
        return value
    }

    /// An id (an order's, a token, an account, a product): trimmed of spaces and tabs as every
    /// input's ids are; refused when it holds a control character or a bidirectional control
    /// (it would reach a terminal or a spreadsheet as it is), or is over 1,024 bytes; nil for null.
    package mutating func optionalIdentifier() throws -> String? {
        guard let text = try optionalString() else { return nil }
        let trimmed = text.trimmingSpaces
        guard trimmed.utf8.count <= 1_024 else { throw JSONError(reason: "an id of over 1,024 bytes", field: "") }
        for scalar in trimmed.unicodeScalars {
            let value = scalar.value
            let control = value < 0x20 || (0x7F...0x9F).contains(value)
            let bidirectional =
                (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
                || value == 0x061C
            guard !control && !bidirectional else {
                throw JSONError(
                    reason: "an id holds a control character (U+\(String(value, radix: 16, uppercase: true)))", field: "")
            }
        }
        return trimmed
    }
}
