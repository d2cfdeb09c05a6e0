import Attribution
import Support

/// The access timeline every cost row is classified by, as CSV (`export-access`): one row per
/// account and segment.
///
/// A segment runs from `start` until the account's next segment (`end`). The first segment of
/// each account has no start (it runs from the beginning) and the last no end: those fields are
/// empty, never a sentinel number. `start_ms` is `start` in epoch milliseconds, kept for scripts
/// that read it (until 0.9.0 the only time column, with -4611686018427387904 for no start).
package enum AccessTimelineFile {
    package static let header = ["account_id", "start_ms", "class", "product_id", "start", "end"]

    package static func write(_ segments: [AccessSegmentFigure], to path: String) throws {
        let file = try CSVFileWriter(path: path, header: header)
        for (index, segment) in segments.enumerated() {
            let next = index + 1 < segments.count ? segments[index + 1] : nil
            let end = next.flatMap { $0.account == segment.account ? $0.start : nil }
            file.text(segment.account)
            if let start = segment.start { file.integer(Int(start.milliseconds)) } else { file.empty() }
            file.text(segment.costClass.reportName)
            if segment.productID.isEmpty { file.empty() } else { file.text(segment.productID) }
            if let start = segment.start { file.text(start.description) } else { file.empty() }
            if let end { file.text(end.description) } else { file.empty() }
            try file.endRow()
        }
        try file.commit()
    }
}
