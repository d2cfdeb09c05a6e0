import Attribution
import Report
import Support

/// How a report run ended.
package struct ReportOutcome: Sendable {
    package var folder: String
    /// Where a failed run's rejects went (`OUT/LABEL.rejects.csv`).
    package var rejectsFile: String
    package var figures: ReportFigures?
    package var conservation: Conservation?
    /// What was rejected: lines, the rows they stand for, files refused whole, reasons.
    package var rejects: RejectTally
    /// How much of each input folder was counted.
    package var completeness = InputCompleteness()
    /// What the run says on stderr but did not stop for.
    package var warnings: [String] = []
    package var costRows = 0
    package var costBytes = 0
    package var costSeconds = 0.0
    package var totalSeconds = 0.0
    /// True when rejects exceeded `--max-rejects`: the previous report was left as it was and
    /// the rejects went to `rejectsFile`.
    package var failedOnRejects = false
    /// A request id was reused with different content, so cost files were read again in order.
    package var readSequentially = false
    /// How the App Store data's signatures fared, in the page's words.
    package var signatures = SignatureStatement()
    /// Files whose signatures an earlier run verified, not checked again.
    package var filesVerifiedEarlier = 0
    /// History pages that say Apple has more, with no later page: the data may be incomplete.
    package var incompleteHistories: [String] = []
}
