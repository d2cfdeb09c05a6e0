internal import CLibCSV
import Support

/// A streaming CSV reader over libcsv: fixed-size blocks in, byte records out.
///
/// libcsv calls back once per field and once per record end. The callbacks only copy field
/// bytes into a batch; after each block the completed records are handed to the caller, then
/// the batch is emptied but for the record still open. Memory is one block plus one batch,
/// whatever the file size.
///
/// Line numbers: libcsv runs with `CSV_REPALL_NL`, so every unquoted line feed ends a record
/// (blank ones included), and line feeds inside quoted fields are counted from the field
/// bytes. A UTF-8 byte-order mark is skipped. Quoting is strict: a quote inside an unquoted
/// field, or a quoted field left open at the end, stops the file with an error naming its line.
package final class CSVParser {
    private let parser: UnsafeMutablePointer<csv_parser>
    private let batch = CSVBatch()
    private var atStart = true
    private var heldBack: [UInt8] = []
    package let file: String
    /// The longest field read: signed payloads are a few kilobytes, history pages far below this.
    static let longestField = 4 << 20

    /// `firstLine` is the line the bytes start on; a part of a file other than its start has
    /// no byte-order mark to look for.
    package init(file: String, firstLine: Int = 1, atFileStart: Bool = true) {
        self.file = file
        atStart = atFileStart
        batch.line = firstLine
        parser = .allocate(capacity: 1)
        csv_init(parser, UInt8(CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL))
        // Quoted fields can be large; growing libcsv's field buffer in big steps avoids re-allocations.
        csv_set_blk_size(parser, 4096)
    }

    deinit {
        csv_free(parser)
        parser.deallocate()
    }

    /// Parses one block and hands every record it completes to `body`.
    package func feed(
        _ block: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void
    ) throws {
        var block = block
        if atStart {
            // The first three bytes are held back until it is known whether they are a
            // byte-order mark, since a block may end inside one.
            let taken = min(3 - heldBack.count, block.count)
            heldBack.append(contentsOf: block[..<taken])
            block = UnsafeRawBufferPointer(rebasing: block[taken...])
            if heldBack.count < 3 { return }
            try releaseHeldBack(body)
        }
        try parse(block, body)
    }

    /// Ends the input: a last record without a final newline is delivered here.
    package func finish(_ body: (CSVRecord) throws -> Void) throws {
        if atStart { try releaseHeldBack(body) }
        let context = Unmanaged.passUnretained(batch).toOpaque()
        let status = csv_fini(parser, onField, onRecordEnd, context)
        if status != 0 {
            throw CSVError.malformed(
                file: file, line: batch.openRecordLine,
                detail: "a quoted field is never closed (a \" is missing before the end of the file)")
        }
        try batch.deliver(body)
    }

    private func releaseHeldBack(_ body: (CSVRecord) throws -> Void) throws {
        atStart = false
        if TextEncodingCheck.isUTF16(heldBack) { throw CSVError.notUTF8(file: file) }
        let isByteOrderMark = heldBack == [0xEF, 0xBB, 0xBF]
        let start = heldBack
        heldBack = []
        if !isByteOrderMark {
            try start.withUnsafeBytes { try parse($0, body) }
        }
    }

    private func parse(_ block: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void) throws {
        guard let base = block.baseAddress, !block.isEmpty else { return }
        let context = Unmanaged.passUnretained(batch).toOpaque()
        let parsed = csv_parse(parser, base, block.count, onField, onRecordEnd, context)
        if parser.pointee.entry_pos > CSVParser.longestField {
            // A field this long is no cost row, account or payload: refused before libcsv's
            // buffer grows with it (a small gzip file can expand to gigabytes of one field).
            try batch.deliver(body)
            throw CSVError.malformed(
                file: file, line: batch.openRecordLine,
                detail: "a field longer than \(CSVParser.longestField >> 20) MiB (an unclosed quote, or not a CSV file?)")
        }
        if parsed != block.count {
            // Records completed before the bad one are still good: deliver them first.
            try batch.deliver(body)
            throw CSVError.malformed(file: file, line: batch.openRecordLine, detail: describe(csv_error(parser)))
        }
        try batch.deliver(body)
    }

    private func describe(_ code: Int32) -> String {
        switch code {
        case CSV_EPARSE:
            "a quote inside an unquoted field, or text after a closing quote; quote the whole field and double inner quotes"
        case CSV_ENOMEM: "out of memory while reading a field"
        case CSV_ETOOBIG: "a field too large to hold in memory"
        default: "libcsv error \(code)"
        }
    }
}

/// The records libcsv completed in the current block: field bytes back to back, each field's
/// end offset, and where each record starts.
///
/// Only the callbacks and the parser touch it.
final class CSVBatch {
    var bytes: [UInt8] = []
    var fieldEnds: [Int] = []
    var recordFirstFields: [Int] = []
    var recordLines: [Int] = []
    /// Index in `fieldEnds` of the first field of the record not yet ended.
    var openRecordFirstField = 0
    var openRecordStartLine = 1
    /// The line of the next byte libcsv will read.
    var line = 1
    /// The last record ended at a carriage return: a line feed right after it ends no new line.
    var afterCarriageReturn = false

    init() {
        bytes.reserveCapacity(CSVReader.blockSize + 65536)
        fieldEnds.reserveCapacity(1 << 16)
        recordFirstFields.reserveCapacity(1 << 14)
        recordLines.reserveCapacity(1 << 14)
    }

    /// The line on which the record being read started (for errors).
    var openRecordLine: Int {
        fieldEnds.count > openRecordFirstField ? openRecordStartLine : line
    }

    func deliver(_ body: (CSVRecord) throws -> Void) throws {
        defer { keepOnlyOpenRecord() }
        try bytes.withUnsafeBufferPointer { bytePointer in
            try fieldEnds.withUnsafeBufferPointer { endsPointer in
                guard let bytesBase = bytePointer.baseAddress ?? emptyBytes,
                    let endsBase = endsPointer.baseAddress
                else { return }
                for (recordIndex, first) in recordFirstFields.enumerated() {
                    let end =
                        recordIndex + 1 < recordFirstFields.count ? recordFirstFields[recordIndex + 1] : openRecordFirstField
                    let record = CSVRecord(
                        line: recordLines[recordIndex], count: end - first,
                        bytes: bytesBase, fieldEnds: endsBase, firstField: first)
                    try body(record)
                }
            }
        }
    }

    /// Drops delivered records, moving the open record's fields to the front.
    private func keepOnlyOpenRecord() {
        recordFirstFields.removeAll(keepingCapacity: true)
        recordLines.removeAll(keepingCapacity: true)
        let openFields = fieldEnds.count - openRecordFirstField
        let byteStart = openRecordFirstField == 0 ? 0 : fieldEnds[openRecordFirstField - 1]
        if byteStart > 0 {
            bytes.removeSubrange(0..<byteStart)
            for index in 0..<openFields {
                fieldEnds[index] = fieldEnds[openRecordFirstField + index] - byteStart
            }
        }
        fieldEnds.removeSubrange(openFields...)
        openRecordFirstField = 0
    }
}

/// Stands in for the buffer of a batch whose fields are all empty; never written.
nonisolated(unsafe) private let emptyBytes: UnsafePointer<UInt8>? = {
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return UnsafePointer(pointer)
}()

/// libcsv's field callback: append the field's bytes and count the line feeds inside it.
private let onField: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
    field, length, context in
    guard let context else { return }
    // The parser holds the batch for the whole call: no retain and release for every field.
    Unmanaged<CSVBatch>.fromOpaque(context)._withUnsafeGuaranteedRef { batch in
        if batch.fieldEnds.count == batch.openRecordFirstField {
            batch.openRecordStartLine = batch.line
        }
        if let field, length > 0 {
            batch.bytes.append(contentsOf: UnsafeRawBufferPointer(start: field, count: length))
            batch.line += countLineFeeds(field, length)
        }
        batch.fieldEnds.append(batch.bytes.count)
    }
}

/// libcsv's record callback: close the open record unless it is blank (a blank line, or the
/// line feed after a carriage return), and advance the line on a line feed.
private let onRecordEnd: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { terminator, context in
    guard let context else { return }
    Unmanaged<CSVBatch>.fromOpaque(context)._withUnsafeGuaranteedRef { closeRecord(in: $0, terminator: terminator) }
}

private func closeRecord(in batch: CSVBatch, terminator: Int32) {
    let fieldCount = batch.fieldEnds.count - batch.openRecordFirstField
    let lastFieldStart = batch.fieldEnds.count >= 2 ? batch.fieldEnds[batch.fieldEnds.count - 2] : 0
    let isBlankLine = fieldCount == 1 && batch.fieldEnds[batch.fieldEnds.count - 1] == lastFieldStart
    if isBlankLine {
        batch.fieldEnds.removeLast()
    } else if fieldCount > 0 {
        batch.recordFirstFields.append(batch.openRecordFirstField)
        batch.recordLines.append(batch.openRecordStartLine)
        batch.openRecordFirstField = batch.fieldEnds.count
    }
    // A line ends at LF, CR LF or a lone CR (old Mac files): count each once.
    if terminator == 0x0D || (terminator == 0x0A && !batch.afterCarriageReturn) { batch.line += 1 }
    batch.afterCarriageReturn = terminator == 0x0D
}
