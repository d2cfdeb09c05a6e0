/// Writes CSV the way every output file promises: UTF-8, comma, RFC 4180 quoting, `\n`,
/// and a leading `'` on text that a spreadsheet would run as a formula.
///
/// Rows go to a temporary file beside the destination, flushed in large blocks so memory
/// stays small however many rows there are; `commit()` renames it into place, so a reader
/// never sees half a file.
package final class CSVFileWriter {
    package let path: String
    private let temporaryPath: String
    private let file: FileDescriptor
    private var buffer: [UInt8] = []
    private var fieldsInRow = 0
    private var committed = false
    private static let flushThreshold = 1 << 20

    package init(path: String, header: [String]) throws(SystemError) {
        self.path = path
        self.temporaryPath = path + ".partial-\(FileSystem.processID)"
        self.file = try FileDescriptor.create(temporaryPath)
        buffer.reserveCapacity(CSVFileWriter.flushThreshold + 4096)
        for name in header { text(name) }
        try endRow()
    }

    deinit {
        if !committed { FileSystem.remove(temporaryPath) }
    }

    /// A free-text field: quoted when needed, guarded against formula injection.
    package func text(_ value: String) {
        separate()
        CSVEncoding.appendText(value, to: &buffer)
    }

    /// A field known to hold no separator, quote or newline and not to be text (numbers, dates).
    package func raw(_ value: String) {
        separate()
        buffer.append(contentsOf: value.utf8)
    }

    package func money(_ value: Money) {
        separate()
        value.append(to: &buffer)
    }

    package func integer(_ value: Int) {
        separate()
        buffer.append(contentsOf: String(value).utf8)
    }

    package func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    package func timestamp(_ value: Timestamp?) {
        separate()
        value?.append(to: &buffer)
    }

    package func date(_ value: CivilDate) {
        separate()
        value.append(to: &buffer)
    }

    package func empty() {
        separate()
    }

    package func endRow() throws(SystemError) {
        buffer.append(UInt8(ascii: "\n"))
        fieldsInRow = 0
        if buffer.count >= CSVFileWriter.flushThreshold { try flush() }
    }

    /// Flushes, syncs and renames the file into place.
    package func commit() throws(SystemError) {
        try flush()
        try file.synchronize()
        try FileSystem.rename(temporaryPath, to: path)
        committed = true
    }

    private func separate() {
        if fieldsInRow > 0 { buffer.append(UInt8(ascii: ",")) }
        fieldsInRow += 1
    }

    private func flush() throws(SystemError) {
        var failure: SystemError?
        buffer.withUnsafeBytes { raw in
            do throws(SystemError) { try file.write(raw) } catch { failure = error }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}

/// The quoting rules, apart from any file, so they can be tested and reused for stdout.
package enum CSVEncoding {
    package static func appendText(_ value: String, to buffer: inout [UInt8]) {
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
    private static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "@") || byte == 0x09 || byte == 0x0D
    }
}
