import Support

/// Reads JSON straight from bytes, member by member, without building a tree or a `String`
/// for anything the caller does not keep.
///
/// App Store exports run to gigabytes of JSON; this is what keeps reading them at disk speed.
///
/// The caller walks objects with `members`, and for each key consumes the value with one of
/// the typed readers or `skip()`.
package struct JSONCursor {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private(set) var index = 0
    private var pendingFirst = false

    package init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? JSONCursor.empty
        end = bytes.count
    }

    nonisolated(unsafe) private static let empty: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    // MARK: Structure

    /// Calls `body` for each member of the object at the cursor; `body` must consume the value.
    package mutating func members(_ body: (inout JSONCursor, JSONKey) throws -> Void) throws {
        try beginObject()
        while let key = try nextKey() {
            do {
                try body(&self, key)
            } catch let error as JSONError {
                throw error.within(String(decoding: key.bytes, as: UTF8.self))
            }
        }
    }

    /// Starts reading the object at the cursor; then `nextKey()` until it returns nil.
    ///
    /// The loop form of `members`, for the hottest paths (no closure, nothing retained).
    mutating func beginObject() throws {
        try expect(UInt8(ascii: "{"))
        skipSpace()
        pendingFirst = true
    }

    /// The next member's key (the cursor then stands on its value), or nil at the object's end.
    mutating func nextKey() throws -> JSONKey? {
        skipSpace()
        if pendingFirst {
            pendingFirst = false
            if peek() == UInt8(ascii: "}") {
                index += 1
                return nil
            }
        } else {
            let next = try take()
            if next == UInt8(ascii: "}") { return nil }
            guard next == UInt8(ascii: ",") else { throw JSONError(reason: "not valid JSON", field: "") }
            skipSpace()
        }
        guard peek() == UInt8(ascii: "\"") else { throw JSONError(reason: "not valid JSON", field: "") }
        let key = try rawString()
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
        return JSONKey(bytes: key)
    }

    /// Calls `body` for each element of the array at the cursor; `body` must consume it.
    package mutating func elements(_ body: (inout JSONCursor, Int) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        var position = 0
        while true {
            skipSpace()
            do {
                try body(&self, position)
            } catch let error as JSONError {
                throw error.within("[\(position)]")
            }
            position += 1
            skipSpace()
            let next = try take()
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw JSONError(reason: "not valid JSON", field: "") }
        }
    }

    /// True (and consumed) when the value at the cursor is `null`.
    package mutating func null() -> Bool {
        skipSpace()
        guard index + 4 <= end, base[index] == UInt8(ascii: "n"), base[index + 1] == UInt8(ascii: "u") else { return false }
        index += 4
        return true
    }

    package mutating func isString() -> Bool {
        skipSpace()
        return peek() == UInt8(ascii: "\"")
    }

    package mutating func isObject() -> Bool {
        skipSpace()
        return peek() == UInt8(ascii: "{")
    }

    /// Requires that nothing but white space follows.
    package mutating func finish() throws {
        skipSpace()
        guard index == end else { throw JSONError(reason: "not valid JSON", field: "") }
    }

    // MARK: Values

    package mutating func string() throws -> String {
        skipSpace()
        let start = index
        let raw = try rawString()
        // Escapes are rare in App Store data: decode them only when present (memchr finds them).
        guard let first = raw.baseAddress, findFirst(UInt8(ascii: "\\"), in: first, raw.count) != nil else {
            return String(decoding: raw, as: UTF8.self)
        }
        return try JSONCursor.unescape(UnsafeRawBufferPointer(start: base + start + 1, count: raw.count))
    }

    /// Checks that a string (its escapes well formed) or `null` is next, without keeping it.
    mutating func checkOptionalString() throws {
        if null() { return }
        skipSpace()
        let start = index
        let raw = try rawString()
        if let first = raw.baseAddress, findFirst(UInt8(ascii: "\\"), in: first, raw.count) != nil {
            _ = try JSONCursor.unescape(UnsafeRawBufferPointer(start: base + start + 1, count: raw.count))
        }
    }

    /// A string or `null`.
    package mutating func optionalString() throws -> String? {
        if null() { return nil }
        return try string()
    }

    /// A string's bytes, valid while the cursor's bytes are; nil when it holds escapes.
    mutating func stringBytes() throws -> UnsafeRawBufferPointer {
        skipSpace()
        let raw = try rawString()
        // Kilobytes of base64: looked through with memchr, not byte by byte.
        if let start = raw.baseAddress, findFirst(UInt8(ascii: "\\"), in: start, raw.count) != nil {
            throw JSONError(reason: "unexpected escape in a base64 value", field: "")
        }
        return raw
    }

    /// An integer; a fraction (Xcode dates) is dropped, rounding down.
    package mutating func integer() throws -> Int64 {
        skipSpace()
        let start = index
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < end, let digit = decimalDigit(base[index]) {
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (added, o2) = shifted.addingReportingOverflow(Int64(digit))
            if o1 || o2 { throw JSONError(reason: "number out of range", field: "") }
            value = added
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw JSONError(reason: "expected a number", field: "") }
        if index < end && (base[index] == UInt8(ascii: ".") || base[index] | 0x20 == UInt8(ascii: "e")) {
            while index < end, JSONCursor.isNumberByte(base[index]) { index += 1 }
            let text = String(decoding: UnsafeRawBufferPointer(start: base + start, count: index - start), as: UTF8.self)
            guard let double = Double(text), double.isFinite, abs(double) < 9e18 else {
                throw JSONError(reason: "expected a number", field: "")
            }
            return Int64(double.rounded(.down))
        }
        return negative ? -value : value
    }

    package mutating func bool() throws -> Bool {
        skipSpace()
        if index + 4 <= end, base[index] == UInt8(ascii: "t") {
            index += 4
            return true
        }
        if index + 5 <= end, base[index] == UInt8(ascii: "f") {
            index += 5
            return false
        }
        throw JSONError(reason: "expected true or false", field: "")
    }

    /// Milliseconds as a number, or a timestamp as text (ISO-8601 or digits), between 1970 and
    /// 2200 and not epoch seconds.
    package mutating func timestamp() throws -> Timestamp {
        let parsed: Timestamp
        if isString() {
            switch TimestampParser.parseInput(try stringBytes()) {
            case .success(let value): parsed = value
            case .failure(let problem): throw JSONError(reason: problem.description, field: "")
            }
        } else {
            parsed = Timestamp(milliseconds: try integer())
        }
        if let problem = TimestampError.check(parsed) { throw JSONError(reason: problem.description, field: "") }
        return parsed
    }

    /// An integer written as a number or as a string of digits (V1 receipts).
    package mutating func lenientInteger() throws -> Int64 {
        if isString() {
            guard let value = Int64(try string()) else { throw JSONError(reason: "not an integer", field: "") }
            return value
        }
        return try integer()
    }

    /// Values nested deeper than this are refused: App Store data nests a few levels, and an
    /// unbounded depth would let one line exhaust the stack.
    static let maximumDepth = 64

    /// The bytes of the next value, which the cursor moves past.
    ///
    /// Read apart with a cursor of their own, an error inside them leaves this cursor right
    /// after the value.
    package mutating func valueBytes() throws -> UnsafeRawBufferPointer {
        skipSpace()
        let start = index
        try skip()
        return UnsafeRawBufferPointer(start: base + start, count: index - start)
    }

    /// Skips the value at the cursor, whatever it is.
    package mutating func skip(depth: Int = 0) throws {
        skipSpace()
        switch peek() {
        case UInt8(ascii: "\""): _ = try rawString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONCursor.maximumDepth else {
                throw JSONError(reason: "nested more than \(JSONCursor.maximumDepth) levels deep", field: "")
            }
            if peek() == UInt8(ascii: "{") {
                try members { cursor, _ in try cursor.skip(depth: depth + 1) }
            } else {
                try elements { cursor, _ in try cursor.skip(depth: depth + 1) }
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"):
            guard null() else { throw JSONError(reason: "not valid JSON", field: "") }
        default:
            guard index < end, JSONCursor.isNumberByte(base[index]) else { throw JSONError(reason: "not valid JSON", field: "") }
            while index < end, JSONCursor.isNumberByte(base[index]) { index += 1 }
        }
    }

    // MARK: Bytes

    @inline(__always)
    private func peek() -> UInt8 { index < end ? base[index] : 0 }

    @inline(__always)
    private mutating func take() throws -> UInt8 {
        guard index < end else { throw JSONError(reason: "not valid JSON", field: "") }
        defer { index += 1 }
        return base[index]
    }

    @inline(__always)
    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard index < end, base[index] == byte else {
            throw JSONError(
                reason: byte == UInt8(ascii: "{")
                    ? "expected an object" : byte == UInt8(ascii: "[") ? "expected an array" : "not valid JSON", field: "")
        }
        index += 1
    }

    @inline(__always)
    private mutating func skipSpace() {
        while index < end {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            index += 1
        }
    }

    /// The bytes between the quotes, escapes left in place.
    private mutating func rawString() throws -> UnsafeRawBufferPointer {
        guard index < end, base[index] == UInt8(ascii: "\"") else { throw JSONError(reason: "expected a string", field: "") }
        index += 1
        let start = index
        // JWS strings run to kilobytes: find each quote with memchr, then check it is not escaped
        // (an odd number of backslashes right before it).
        while index < end {
            guard let quote = findByte(UInt8(ascii: "\""), from: index) else { break }
            var backslashes = 0
            while quote - backslashes - 1 >= start && base[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 {
                index = quote + 1
                return UnsafeRawBufferPointer(start: base + start, count: quote - start)
            }
            index = quote + 1
        }
        throw JSONError(reason: "not valid JSON", field: "")
    }

    @inline(__always)
    private func findByte(_ byte: UInt8, from position: Int) -> Int? {
        guard position < end, let hit = findFirst(byte, in: UnsafeRawPointer(base + position), end - position) else { return nil }
        return hit - UnsafeRawPointer(base)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        decimalDigit(byte) != nil || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte | 0x20 == UInt8(ascii: "e")
    }

    private static func unescape(_ raw: UnsafeRawBufferPointer) throws -> String {
        var scalars = String.UnicodeScalarView()
        var bytes: [UInt8] = []
        var index = 0
        func flush() {
            if !bytes.isEmpty {
                scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        func hex4(_ at: Int) throws -> UInt32 {
            guard at + 4 <= raw.count else { throw JSONError(reason: "bad \\u escape", field: "") }
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = raw[at + offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw JSONError(reason: "bad \\u escape", field: "")
                }
                value = value << 4 | digit
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try hex4(index)
                index += 4
                if (0xD800..<0xDC00).contains(code), index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\") {
                    let low = try hex4(index + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                flush()
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: bytes.append(escaped)
            }
        }
        flush()
        return String(scalars)
    }
}

/// A member name, compared by bytes.
package struct JSONKey {
    package let bytes: UnsafeRawBufferPointer

    @inline(__always)
    package static func == (key: JSONKey, name: StaticString) -> Bool {
        key.bytes.count == name.utf8CodeUnitCount
            && memcmpBytes(key.bytes.baseAddress ?? UnsafeRawPointer(name.utf8Start), name.utf8Start, key.bytes.count)
    }
}
