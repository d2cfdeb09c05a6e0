import Support

/// One CSV record as byte fields, valid only inside the call that receives it.
///
/// Fields are views into the reader's buffer: parse numbers and dates from them directly
/// and make a `String` only for what must be kept.
package struct CSVRecord {
    /// 1-based line of the file on which the record starts.
    package let line: Int
    package let count: Int
    let bytes: UnsafePointer<UInt8>
    let fieldEnds: UnsafePointer<Int>
    let firstField: Int

    @inline(__always)
    package subscript(index: Int) -> UnsafeRawBufferPointer {
        let global = firstField + index
        let start = global == 0 ? 0 : fieldEnds[global - 1]
        return UnsafeRawBufferPointer(start: bytes + start, count: fieldEnds[global] - start)
    }

    /// The field without leading and trailing spaces and tabs: no input means anything by
    /// them, so an id written `"acct-2 "` in one file and `acct-2` in another is one id.
    @inline(__always)
    package func trimmed(_ index: Int) -> UnsafeRawBufferPointer {
        var field = self[index]
        while let first = field.first, first == 0x20 || first == 0x09 {
            field = UnsafeRawBufferPointer(rebasing: field.dropFirst())
        }
        while let last = field.last, last == 0x20 || last == 0x09 { field = UnsafeRawBufferPointer(rebasing: field.dropLast()) }
        return field
    }

    package func string(_ index: Int) -> String {
        String(decoding: self[index], as: UTF8.self)
    }

    package var strings: [String] {
        (0..<count).map(string)
    }
}
