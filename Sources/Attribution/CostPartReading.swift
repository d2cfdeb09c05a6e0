import Ingest
import Support
import Synchronization

extension ParallelCostReading {
    /// Per part: what it found.
    private struct PartResult: Sendable {
        var summary: CostFileSummary
        var rejects: [Reject]
    }

    /// Reads every part of `plans` on `threads` threads into copies of `template`.
    static func readParts<Sink: CostRowSink>(
        _ plans: [FileSplitter], mapping: CostColumnMap, prices: PriceTable, pooled: Set<String>, template: Sink,
        threads: Int, requests: RequestRegistry, progress: @escaping @Sendable (Int, Int) -> Void
    ) throws -> Collected<Sink> {
        let (checkers, headerRejects) = try headers(plans, mapping: mapping, prices: prices, pooled: pooled)
        let parts = plans.enumerated().flatMap { file, plan in
            checkers[file] == nil ? [] : plan.parts.map { (file: file, part: $0) }
        }
        let progressCounts = Mutex((bytes: 0, rows: 0))
        let checkersCopy = checkers
        let (sinks, partResults) = try Parallel.workers(
            parts.count, threads: threads, start: { _ in template.emptyCopy() }
        ) { sink, index in
            let (file, part) = parts[index]
            try sink.begin(file: part.path)
            try sink.begin(part: index)
            // An empty part reads nothing, even of a file read whole (gzip, JSON lines), whose
            // later pieces of a split are empty.
            guard let checker = checkersCopy[file], part.start < part.end else {
                return PartResult(summary: CostFileSummary(path: part.path, bytes: 0), rejects: [])
            }
            var summary = CostFileSummary(path: part.path, bytes: 0)
            var found: [Reject] = []
            var rows = 0
            if checker.columns.format.readsJSONLines {
                try InputStream.readLines(path: part.path, limit: part.end) { line, bytes in
                    if let reject = try checker.takeEvent(
                        line: line, bytes: bytes, into: &summary, requests: requests, { try sink.add($0) })
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
                if let reject = try checker.take(record, into: &summary, requests: requests, { try sink.add($0) }) {
                    found.append(reject)
                }
            }
            return PartResult(summary: summary, rejects: found)
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
        return Collected(sinks: sinks, summaries: summaries, headerRejects: headerRejects, rowRejects: rowRejects)
    }

    /// Notes in `census` the request id of every row of `plans` that has one, no row checked.
    ///
    /// The records are those `readParts` reads, the id each one's claim would carry (a file whose
    /// header is refused is not read). `progress` hears the bytes and rows read so far.
    static func countRequests(
        _ plans: [FileSplitter], checkers: [CostRowChecker?], threads: Int, census: RequestCensus,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws {
        let parts = plans.enumerated().flatMap { file, plan in
            checkers[file] == nil ? [] : plan.parts.map { (file: file, part: $0) }
        }
        let counted = Mutex((bytes: 0, rows: 0))
        @Sendable func advance(bytes: Int, rows: Int) {
            let total = counted.withLock { counts in
                counts.bytes += bytes
                counts.rows += rows
                return counts
            }
            progress(total.bytes, total.rows)
        }
        let (pending, _) = try Parallel.workers(parts.count, threads: threads, start: { _ in census.pending() }) {
            pending, index in
            let (file, part) = parts[index]
            guard let checker = checkers[file], part.start < part.end else { return }
            var rows = 0
            if checker.columns.format.readsJSONLines {
                try InputStream.readLines(path: part.path, limit: part.end) { _, bytes in
                    rows += 1
                    guard var id = checker.requestID(ofEvent: bytes) else { return }
                    try id.withUTF8 { try census.note(UnsafeRawBufferPointer($0), in: &pending) }
                }
                advance(bytes: part.end - part.start, rows: rows)
                return
            }
            var skipHeader = part.start == 0
            try CSVReader.read(
                part: part,
                onBlock: { block in
                    advance(bytes: block.count, rows: rows)
                    rows = 0
                }
            ) { record in
                if skipHeader {
                    skipHeader = false
                    return
                }
                rows += 1
                if let id = checker.requestID(of: record) { try census.note(id, in: &pending) }
            }
        }
        for var left in pending { try census.write(&left) }
    }

    /// Every file's header, read through the file's own start (a part other than the first
    /// has none).
    ///
    /// A file whose header cannot be used is a rejected input, line 1, and none of its rows are read;
    /// the others go on, so one run lists every such file.
    static func headers(
        _ plans: [FileSplitter], mapping: CostColumnMap, prices: PriceTable, pooled: Set<String>
    ) throws -> (checkers: [CostRowChecker?], rejects: [Reject]) {
        var checkers: [CostRowChecker?] = []
        var rejects: [Reject] = []
        for plan in plans {
            do {
                let checker = try CostRowChecker.forFile(plan.path, mapping: mapping, prices: prices, pooled: pooled)
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
