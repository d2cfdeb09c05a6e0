import Attribution
import Support

/// App Store rows refused in a run that passed within `--max-rejects`.
///
/// How many, the most common reason and its fix. The figures rest on the rest of the data, so the page says so
/// before any figure.
package struct AppStoreRefusal: Sendable, Hashable {
    package var rows = 0
    /// The most common reason, with its count and what to do.
    package var reason: String?

    package init() {}

    package init(_ tally: RejectTally) {
        rows = tally.rows(in: RejectTally.appStoreFolders)
        reason = RejectAdvice.sentence(tally, in: RejectTally.appStoreFolders)
    }
}
