/// One CSV row as bytes, quoted as `CSVFileWriter` quotes it, for a writer that places rows
/// itself (the generator puts each cost row in time order before it is written).
package struct CSVLine: Sendable {
    package private(set) var bytes: [UInt8] = []
    private var fields = 0

    package init() {}

    package mutating func text(_ value: String) {
        separate()
        CSVEncoding.appendText(value, to: &bytes)
    }

    package mutating func money(_ value: Money) {
        separate()
        value.append(to: &bytes)
    }

    package mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func timestamp(_ value: Timestamp) {
        separate()
        value.append(to: &bytes)
    }

    package mutating func empty() {
        separate()
    }

    /// The row with its line feed.
    package var line: [UInt8] { bytes + [UInt8(ascii: "\n")] }

    /// The header row of `names`, with its line feed.
    package static func header(_ names: [String]) -> [UInt8] {
        var line = CSVLine()
        for name in names { line.text(name) }
        return line.line
    }

    private mutating func separate() {
        if fields > 0 { bytes.append(UInt8(ascii: ",")) }
        fields += 1
    }
}
