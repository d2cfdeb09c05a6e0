/// More input refused than `--max-rejects` allows: every command that reads `--data` stops
/// with this one message (exit 1), naming the count, the most common reason and its fix, and
/// every file refused whole.
package struct RejectLimitError: DiagnosticError {
    package var tally: RejectTally
    package var maxRejects: Int
    /// What the command did about it, in one sentence.
    package var consequence: String

    package init(_ tally: RejectTally, maxRejects: Int, consequence: String) {
        self.tally = tally
        self.maxRejects = maxRejects
        self.consequence = consequence
    }

    /// The one verdict every command gives on what it rejected.
    ///
    /// Nil within `maxRejects`, else the error that stops it, saying `consequence`. Rows are
    /// counted, not lines: a file refused whole weighs all of its rows.
    package static func verdict(_ tally: RejectTally, maxRejects: Int, consequence: String) -> RejectLimitError? {
        tally.rows > maxRejects ? RejectLimitError(tally, maxRejects: maxRejects, consequence: consequence) : nil
    }

    /// The first rejects, then the verdict (how many rows, the most common reason, what was done
    /// and what to do), then the files refused whole.
    package var diagnostic: Diagnostic {
        let lines =
            tally.lines == tally.rows ? "" : " (\(HumanText.count(tally.lines)) \(tally.lines == 1 ? "reject" : "rejects"))"
        var text =
            "\(HumanText.count(tally.rows)) input \(tally.rows == 1 ? "row" : "rows") rejected\(lines), "
            + "more than --max-rejects \(maxRejects)."
        let whole = tally.wholeFiles
        if whole.isEmpty {
            if let most = RejectAdvice.sentence(tally) { text += " Most: \(most)" }
        } else {
            // A file the tool cannot read is fixed (the reason above says how), never waved
            // through: --max-rejects is for stray lines.
            text +=
                " \(whole.count == 1 ? "A file was" : "\(whole.count) files were") refused whole, all \(whole.count == 1 ? "its" : "their") "
                + "rows uncounted: fix \(whole.count == 1 ? "it" : "them") as said above and run again."
        }
        if !consequence.isEmpty { text += " " + consequence }
        // The fix comes first: --max-rejects runs on without those rows, which for a month's
        // close (or a signature that fails) is rarely what is wanted.
        if whole.isEmpty {
            text += " Fix the inputs; --max-rejects \(tally.rows) would run on with these rows left out of every figure."
        }
        // The first rejects come first, one per line; the files refused whole last, their
        // reason said once (a file's reject among the first says it already).
        var context = tally.samples.map(\.description)
        if tally.lines > tally.samples.count {
            context.append("... and \(HumanText.count(tally.lines - tally.samples.count)) more")
        }
        let notes = whole.map { reject in
            tally.samples.contains(reject)
                ? "refused whole: \(reject.file) (\(HumanText.count(reject.rows)) \(reject.rows == 1 ? "row" : "rows") not counted)"
                : RejectAdvice.wholeFileLines([reject])[0]
        }
        return Diagnostic(text, context: context, notes: notes)
    }
}

extension RejectAdvice {
    /// One line per file refused whole: what a close left out, for the console's last lines.
    package static func wholeFileLines(_ files: [Reject]) -> [String] {
        files.map { reject in
            "refused whole: \(reject.file) (\(HumanText.count(reject.rows)) \(reject.rows == 1 ? "row" : "rows") not counted): \(reject.reason)"
        }
    }
}
