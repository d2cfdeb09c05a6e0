import Ingest
import Ledger
import Support
import Synchronization

/// Reads and attributes every cost file on all cores: files are split at record boundaries,
/// each thread takes parts in turn and attributes them into its own totals, and the totals
/// merge exactly (`AttributionTotals.merge`).
///
/// Rejects keep file and line order, whatever thread found them.
package enum ParallelCostReading {
    package struct Result: Sendable {
        /// Merged, with credit rows not yet settled.
        package var totals: AttributionTotals
        package var summaries: [CostFileSummary]
        package var inputs: [InputFileRecord]
        /// True when a request id was reused with different content and the files were read
        /// again one after the other, so that the first occurrence counts.
        package var readSequentially: Bool
        /// Files whose header cannot be used (line 1), in file order: listed before the rows'.
        package var headerRejects: [Reject]
        /// Rejected rows in file and line order.
        package var rowRejects: [Reject]
    }

    /// Per part: what it found.
    private struct PartResult: Sendable {
        var summary: CostFileSummary
        var rejects: [Reject]
    }

    package static func run(
        files: [String], root: String, mapping: CostColumnMap, template: Attributor, threads: Int,
        registry: @escaping @Sendable () -> RequestRegistry = { RequestRegistry() },
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> Result {
        let threads = max(1, threads)
        // Checksums and split points, one file per thread.
        let plans = try plan(files, parts: threads == 1 ? 1 : threads * 2)
        // Usage rows without cost are priced from the data folder's prices.csv.
        let prices = try PriceTable(dataFolder: root)
        let sequential = plans.map { plan in
            var whole = plan
            whole.parts = [FilePart(path: plan.path, start: 0, end: plan.size, firstLine: 1)]
            return whole
        }
        var result: Attributed
        do {
            result = try attribute(
                plans, root: root, mapping: mapping, prices: prices, template: template, threads: threads,
                requests: registry(), progress: progress)
        } catch let error as CostSumError where threads > 1 {
            // Parts summed apart overflowed only when added up: in file order the row that
            // overflows is found, and the error names its file and line.
            _ = try attribute(
                sequential, root: root, mapping: mapping, prices: prices, template: template, threads: 1,
                requests: registry(), progress: progress)
            throw error
        }
        if threads > 1 && result.summaries.contains(where: { $0.conflicts > 0 }) {
            result = try attribute(
                sequential, root: root, mapping: mapping, prices: prices, template: template, threads: 1,
                requests: registry(), progress: progress)
            result.readSequentially = true
        }
        return Result(
            totals: result.totals, summaries: result.summaries, inputs: result.inputs, readSequentially: result.readSequentially,
            headerRejects: result.headerRejects, rowRejects: result.rowRejects)
    }

    private struct Attributed {
        var totals: AttributionTotals
        var summaries: [CostFileSummary]
        var inputs: [InputFileRecord]
        var headerRejects: [Reject]
        var rowRejects: [Reject]
        var readSequentially = false
    }

    private static func plan(_ files: [String], parts: Int) throws -> [FileSplitter] {
        try Parallel.map(files.count, threads: FileSystem.processorCount) { index in
            // JSON lines are read whole: a CSV record boundary means nothing inside JSON.
            try FileSplitter(path: files[index], parts: CostFormat.isJSONLines(files[index]) ? 1 : parts)
        }
    }

    private static func attribute(
        _ plans: [FileSplitter], root: String, mapping: CostColumnMap, prices: PriceTable, template: Attributor,
        threads: Int, requests: RequestRegistry, progress: @escaping @Sendable (Int, Int) -> Void
    ) throws -> Attributed {
        let (checkers, headerRejects) = try headers(plans, mapping: mapping, prices: prices)
        let parts = plans.enumerated().flatMap { file, plan in
            checkers[file] == nil ? [] : plan.parts.map { (file: file, part: $0) }
        }
        let progressCounts = Mutex((bytes: 0, rows: 0))
        let checkersCopy = checkers
        let (attributors, partResults) = try Parallel.workers(
            parts.count, threads: threads, start: { _ in template.emptyCopy() }
        ) { attributor, index in
            let (file, part) = parts[index]
            guard let checker = checkersCopy[file] else {
                return PartResult(summary: CostFileSummary(path: part.path, bytes: 0), rejects: [])
            }
            var summary = CostFileSummary(path: part.path, bytes: 0)
            var found: [Reject] = []
            var rows = 0
            if checker.columns.format.readsJSONLines {
                try InputStream.readLines(path: part.path) { line, bytes in
                    if let reject = try checker.takeEvent(
                        line: line, bytes: bytes, into: &summary, requests: requests, { try attributor.add($0) })
                    {
                        found.append(reject)
                    }
                }
                let counted = progressCounts.withLock { counts in
                    counts.bytes += part.end - part.start
                    counts.rows += summary.rows
                    return counts
                }
                progress(counted.bytes, counted.rows)
                return PartResult(summary: summary, rejects: found)
            }
            var skipHeader = part.start == 0
            try CSVReader.read(
                part: part,
                onBlock: { block in
                    let counted = progressCounts.withLock { counts in
                        counts.bytes += block.count
                        counts.rows += rows
                        return counts
                    }
                    rows = 0
                    progress(counted.bytes, counted.rows)
                }
            ) { record in
                if skipHeader {
                    skipHeader = false
                    return
                }
                rows += 1
                if let reject = try checker.take(record, into: &summary, requests: requests, { try attributor.add($0) }) {
                    found.append(reject)
                }
            }
            return PartResult(summary: summary, rejects: found)
        }

        var totals = template.emptyCopy().totals
        do {
            for attributor in attributors { try totals.merge(attributor.totals) }
        } catch {
            throw CostSumError(file: nil, underlying: error)
        }
        var summaries = plans.map { CostFileSummary(path: $0.path, bytes: $0.size) }
        var rowRejects: [Reject] = []
        for (index, (file, _)) in parts.enumerated() {
            let part = partResults[index]
            do {
                try summaries[file].merge(part.summary)
            } catch {
                throw CostSumError(file: part.summary.path, underlying: error)
            }
            rowRejects.append(contentsOf: part.rejects)
        }
        let inputs = plans.map { InputFileRecord(path: HumanText.relative($0.path, to: root), bytes: $0.size, sha256: $0.sha256) }
        return Attributed(
            totals: totals, summaries: summaries, inputs: inputs, headerRejects: headerRejects, rowRejects: rowRejects)
    }

    /// Every file's header, read through the file's own start (a part other than the first
    /// has none).
    ///
    /// A file whose header cannot be used is a rejected input, line 1, and none of its rows are read;
    /// the others go on, so one run lists every such file.
    private static func headers(
        _ plans: [FileSplitter], mapping: CostColumnMap, prices: PriceTable
    ) throws -> (checkers: [CostRowChecker?], rejects: [Reject]) {
        var checkers: [CostRowChecker?] = []
        var rejects: [Reject] = []
        for plan in plans {
            do {
                let checker = try CostRowChecker.forFile(plan.path, mapping: mapping, prices: prices)
                checkers.append(checker)
            } catch let error as CostInputError {
                rejects.append(
                    Reject(file: plan.path, line: 1, field: "", value: "", reason: error.reason)
                        .refusingFile(rows: FileRowCount.dataRows(plan.path, headerLines: 1)))
                checkers.append(nil)
            } catch CSVError.notUTF8 {
                rejects.append(
                    Reject(file: plan.path, line: 1, field: "", value: "", reason: TextEncodingCheck.utf16Reason)
                        .refusingFile(rows: FileRowCount.dataRows(plan.path, headerLines: 1)))
                checkers.append(nil)
            }
        }
        return (checkers, rejects)
    }
}

/// Sums of cost beyond what money can hold, found when the parts of the reading are added up.
package struct CostSumError: Error, CustomStringConvertible {
    package var file: String?
    package var underlying: any Error

    package init(file: String?, underlying: any Error) {
        self.file = file
        self.underlying = underlying
    }

    package var description: String {
        let what = file.map { "\($0): error: the cost read in this file" } ?? "error: the cost read in all files"
        return "\(what), in one currency or one class, is beyond what the tool can hold (\(underlying)); "
            + "check the amounts, or report a shorter window"
    }
}
