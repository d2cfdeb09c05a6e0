/// Writes CSV the way every output file promises: UTF-8, comma, RFC 4180 quoting, `\n`,
/// and a leading `'` on text that a spreadsheet would run as a formula.
///
/// Rows go through an `AtomicFileWriter`: nothing is visible until `commit()`.
package final class CSVFileWriter {
    private let file: AtomicFileWriter
    private var fieldsInRow = 0

    package var path: String { file.path }

    package init(path: String, header: [String]) throws(SystemError) {
        file = try AtomicFileWriter(path: path)
        for name in header { text(name) }
        try endRow()
    }

    /// A free-text field: quoted when needed, guarded against formula injection.
    package func text(_ value: String) {
        separate()
        CSVEncoding.appendText(value, to: &file.buffer)
    }

    /// A field known to hold no separator, quote or newline and not to be text (numbers, dates).
    package func raw(_ value: String) {
        separate()
        file.buffer.append(contentsOf: value.utf8)
    }

    package func money(_ value: Money) {
        separate()
        value.append(to: &file.buffer)
    }

    package func integer(_ value: Int) {
        separate()
        file.buffer.append(contentsOf: String(value).utf8)
    }

    package func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    package func timestamp(_ value: Timestamp?) {
        separate()
        value?.append(to: &file.buffer)
    }

    package func date(_ value: CivilDate) {
        separate()
        value.append(to: &file.buffer)
    }

    package func empty() {
        separate()
    }

    package func endRow() throws(SystemError) {
        file.buffer.append(UInt8(ascii: "\n"))
        fieldsInRow = 0
        try file.flushIfFull()
    }

    /// Flushes, syncs and renames the file into place.
    package func commit() throws(SystemError) {
        try file.commit()
    }

    private func separate() {
        if fieldsInRow > 0 { file.buffer.append(UInt8(ascii: ",")) }
        fieldsInRow += 1
    }
}

/// The quoting rules, apart from any file, so they can be tested and reused for stdout.
package enum CSVEncoding {
    static func appendText(_ value: String, to buffer: inout [UInt8]) {
        let utf8 = value.utf8
        let guarded = utf8.first.map(startsFormula) ?? false
        let needsQuotes = utf8.contains { byte in
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
        }
        if needsQuotes { buffer.append(UInt8(ascii: "\"")) }
        if guarded { buffer.append(UInt8(ascii: "'")) }
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            buffer.append(byte)
        }
        if needsQuotes { buffer.append(UInt8(ascii: "\"")) }
    }

    /// A line of text fields, as `validate` prints rejects to the terminal.
    package static func line(_ fields: [String]) -> String {
        var buffer: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            appendText(field, to: &buffer)
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Spreadsheets run a cell that starts with these as a formula.
    package static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "@") || byte == 0x09 || byte == 0x0D
    }
}
