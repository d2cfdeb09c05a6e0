import Attribution
import Report
import Support

/// How a report run ended: written, refused for its rejects, or stopped by a diagnostic.
package enum ReportOutcome: Sendable {
    /// Every file of `OUT/LABEL/` was written at once.
    case succeeded(ReportWritten)
    /// More rows were rejected than `--max-rejects` allows: the previous report was left as it
    /// was, and every rejected line went to `rejectsFile`.
    case refused(ReportRefused)
    /// The run stopped on an input it cannot use, or could not write: what went wrong, where,
    /// and that the previous report is untouched.
    case failed(Diagnostic)

    /// What the run said but did not stop for.
    package var warnings: [Diagnostic] {
        switch self {
        case .succeeded(let written): written.warnings
        case .refused(let refused): refused.warnings
        case .failed: []
        }
    }

    /// The written report, or nil when the run did not write one.
    package var written: ReportWritten? {
        if case .succeeded(let written) = self { written } else { nil }
    }
}

/// A report written: its figures (built once) and everything the console says of the run.
package struct ReportWritten: Sendable {
    package var folder: String
    package var figures: ReportFigures
    package var conservation: Conservation
    package var reading: ReportReading
    /// Whole seconds of the run, with the folder swapped in.
    package var totalSeconds = 0.0

    package var warnings: [Diagnostic] { reading.warnings }
}

/// A report refused for its rejects: nothing in `folder` changed.
package struct ReportRefused: Sendable {
    /// Why, and what was done: the one verdict every command gives.
    package var verdict: RejectLimitError
    package var reading: ReportReading

    package var warnings: [Diagnostic] { reading.warnings }
}

/// What reading the inputs found, written or not: the rejects, how much was counted, how the
/// signatures fared, and how fast the cost rows went.
package struct ReportReading: Sendable {
    /// What was rejected: lines, the rows they stand for, files refused whole, reasons.
    package var rejects: RejectTally
    /// How much of each input folder was counted.
    package var completeness: InputCompleteness
    /// What the run says on stderr but did not stop for.
    package var warnings: [Diagnostic]
    /// How the App Store data's signatures fared, in the page's words.
    package var signatures: SignatureStatement
    /// Files whose signatures an earlier run verified, not checked again.
    package var filesVerifiedEarlier: Int
    /// A request id was reused with different content, so cost files were read again in order.
    package var readSequentially: Bool
    package var costRows: Int
    package var costBytes: Int
    package var costSeconds: Double
}
