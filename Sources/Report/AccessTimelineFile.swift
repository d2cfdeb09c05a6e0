import Attribution
import Support

/// The access timeline every cost row is classified by, as CSV (`export-access`): one row per
/// account and segment, `start_ms` in epoch milliseconds.
///
/// The first segment of each account starts at a very early time standing for "the beginning".
package enum AccessTimelineFile {
    package static let header = ["account_id", "start_ms", "class", "product_id"]

    package static func write(_ segments: [AccessSegmentFigure], to path: String) throws {
        let file = try CSVFileWriter(path: path, header: header)
        for segment in segments {
            file.text(segment.account)
            file.integer(Int(segment.start?.milliseconds ?? Int64.min / 2))
            file.text(segment.costClass.reportName)
            if segment.productID.isEmpty { file.empty() } else { file.text(segment.productID) }
            try file.endRow()
        }
        try file.commit()
    }
}
