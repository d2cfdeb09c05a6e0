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
}
