import Support

/// A line of `play/` held to JSON as RFC 8259 writes it, before anything is read from it.
///
/// The cursor the App Store files are read with is forgiving where Apple's data never goes
/// (a literal is known by its first letters, a key given twice is the last one); Play's files
/// come from the app's own server, so each line is checked whole first: exact literals and
/// numbers, the escapes JSON has, no raw control byte in a string, no key given twice in an
/// object, nothing after the value.
enum StrictJSON {
    /// The first thing wrong with `bytes`, with the path to where it is; nil when it is JSON.
    static func problem(in bytes: UnsafeRawBufferPointer) -> JSONError? {
        var checker = Checker(bytes: bytes)
        do {
            checker.space()
            try checker.value(depth: 0, path: "")
            checker.space()
            guard checker.index == bytes.count else { throw JSONError(reason: "more after the JSON value", field: "") }
            return nil
        } catch let error as JSONError {
            return error
        } catch {
            return JSONError(reason: "\(error)", field: "")
        }
    }

    private struct Checker {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func space() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        func fail(_ reason: String, _ path: String) -> JSONError { JSONError(reason: reason, field: path) }

        mutating func value(depth: Int, path: String) throws {
            guard depth < JSONCursor.maximumDepth else {
                throw fail("nested deeper than \(JSONCursor.maximumDepth) levels", path)
            }
            guard let byte = current else { throw fail("the line ends where a value should be", path) }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth, path: path)
            case UInt8(ascii: "["): try array(depth: depth, path: path)
            case UInt8(ascii: "\""): _ = try string(path: path)
            case UInt8(ascii: "t"): try literal("true", path)
            case UInt8(ascii: "f"): try literal("false", path)
            case UInt8(ascii: "n"): try literal("null", path)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(path)
            default: throw fail("not a JSON value", path)
            }
        }

        mutating func literal(_ word: StaticString, _ path: String) throws {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                UnsafeRawBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
                    UnsafeRawBufferPointer(start: word.utf8Start, count: count))
            else { throw fail("not a JSON value (true, false and null are spelled out)", path) }
            index += count
        }

        mutating func number(_ path: String) throws {
            func digits() -> Int {
                let start = index
                while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
                return index - start
            }
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else if digits() == 0 {
                throw fail("not a JSON number", path)
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw fail("not a JSON number", path) }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw fail("not a JSON number", path) }
            }
        }

        /// The string's bytes as written (escapes left in): keys are compared so.
        mutating func string(path: String) throws -> [UInt8] {
            index += 1
            let start = index
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    let text = Array(bytes[start..<index])
                    index += 1
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    switch current ?? 0 {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        index += 1
                        for _ in 0..<4 {
                            guard let hex = current, isHex(hex) else { throw fail("a \\u escape takes four hex digits", path) }
                            index += 1
                        }
                    default: throw fail("not an escape JSON has", path)
                    }
                case 0..<0x20: throw fail("a control character inside a string (JSON escapes them)", path)
                default: index += 1
                }
            }
            throw fail("a string that does not end", path)
        }

        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        mutating func object(depth: Int, path: String) throws {
            index += 1
            space()
            if current == UInt8(ascii: "}") {
                index += 1
                return
            }
            var keys = Set<[UInt8]>()
            while true {
                space()
                guard current == UInt8(ascii: "\"") else { throw fail("an object's key is a string", path) }
                let key = try string(path: path)
                let name = String(decoding: key, as: UTF8.self)
                let inner = path.isEmpty ? name : path + "." + name
                guard keys.insert(key).inserted else { throw fail("a key given twice in one object", inner) }
                space()
                guard current == UInt8(ascii: ":") else { throw fail("a key is followed by ':'", inner) }
                index += 1
                space()
                try value(depth: depth + 1, path: inner)
                space()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard current == UInt8(ascii: "}") else {
                    throw fail("an object's members are separated by ',' and end with '}'", path)
                }
                index += 1
                return
            }
        }

        mutating func array(depth: Int, path: String) throws {
            index += 1
            space()
            if current == UInt8(ascii: "]") {
                index += 1
                return
            }
            var position = 0
            while true {
                space()
                try value(depth: depth + 1, path: path + "[\(position)]")
                position += 1
                space()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard current == UInt8(ascii: "]") else {
                    throw fail("an array's elements are separated by ',' and end with ']'", path)
                }
                index += 1
                return
            }
        }
    }
}
