import Support

/// Reads cost files into `CostRow`s, one after the other: maps the header, checks every
/// field, drops repeated request ids, and sends every refused row to the reject log with its
/// file, line, field, value and reason. (Reports read in parallel with `ParallelCostReading`,
/// through the same checks.)
package final class CostFileReader {
    package let mapping: CostColumnMap
    package let rejects: RejectLog
    package let prices: PriceTable
    /// Usage categories a FOCUS bill pays for: their rows may come without a cost.
    package let pooled: Set<String>
    private let requests = RequestRegistry()

    package init(
        mapping: CostColumnMap = [:], rejects: RejectLog, prices: PriceTable = PriceTable(), pooled: Set<String> = []
    ) {
        self.mapping = mapping
        self.rejects = rejects
        self.prices = prices
        self.pooled = pooled
    }

    /// Reads one file; `onBytes` gets progress, `body` every accepted row.
    package func read(
        path: String, onBytes: (UnsafeRawBufferPointer) -> Void = { _ in }, _ body: (CostRow) throws -> Void
    ) throws -> CostFileSummary {
        var summary = CostFileSummary(path: path, bytes: FileSystem.fileSize(path) ?? 0)
        var checker: CostRowChecker?
        do {
            if mapping.format(for: path).readsJSONLines || CostFormat.isJSONLines(path) {
                let events = try CostRowChecker.forFile(path, mapping: mapping, prices: prices, pooled: pooled)
                checker = events
                try withoutActuallyEscaping(onBytes) { onBytes in
                    try InputStream.readLines(path: path, onBlock: onBytes) { line, bytes in
                        if let reject = try events.takeEvent(line: line, bytes: bytes, into: &summary, requests: requests, body) {
                            try rejects.record(reject)
                        }
                    }
                }
                return summary
            }
            try CSVReader.read(path: path, onBlock: onBytes) { record in
                guard let checker else {
                    checker = try CostRowChecker.forFile(
                        path, header: record.strings, mapping: mapping, prices: prices, pooled: pooled)
                    return
                }
                if let reject = try checker.take(record, into: &summary, requests: requests, body) { try rejects.record(reject) }
            }
            if checker == nil { throw CostInputError.emptyFile(file: path) }
        } catch let error as CostInputError {
            // Refused whole, as the parallel reader refuses it: the run goes on and the reject
            // weighs every row of the file.
            try rejects.record(refusedFile(path, reason: error.reason))
        } catch CSVError.notUTF8 where checker == nil {
            try rejects.record(refusedFile(path, reason: TextEncodingCheck.utf16Reason))
        }
        return summary
    }

    private func refusedFile(_ path: String, reason: String) -> Reject {
        Reject(file: path, line: 1, field: "", value: "", reason: reason)
            .refusingFile(rows: FileRowCount.dataRows(path, headerLines: 1))
    }
}
