import Ingest
import Support

/// One delivery-cost row of an account, as the answer to a refund review uses it: when it was
/// served, its category (the usage event's description), and the credits it drew.
package struct UsageRow: Sendable, Hashable {
    package var at: Timestamp
    package var category: String
    /// Credits drawn, in nano-units, when the row's unit is `credit` (docs/domain.md rule 7).
    package var credits: Int64?

    package init(at: Timestamp, category: String, credits: Int64? = nil) {
        self.at = at
        self.category = category
        self.credits = credits
    }
}

/// The cost rows of a few accounts, kept whole: what `respond --store play` answers from.
///
/// It holds the rows of the accounts asked for alone, whatever the files hold.
package struct AccountUsage: CostRowSink {
    /// Each account's rows in file order (every part's copy in part order, once merged).
    package private(set) var rows: [String: [UsageRow]] = [:]
    private let wanted: [[UInt8]: String]

    package init(accounts: Set<String>) {
        wanted = Dictionary(uniqueKeysWithValues: accounts.map { (Array($0.utf8), $0) })
    }

    package func emptyCopy() -> AccountUsage {
        var copy = self
        copy.rows = [:]
        return copy
    }

    package mutating func begin(part: Int) throws {}

    package mutating func add(_ row: CostRow) throws {
        guard let account = wanted[Array(row.accountID)] else { return }
        let category = String(decoding: row.category, as: UTF8.self)
        rows[account, default: []].append(
            UsageRow(at: row.timestamp, category: category, credits: row.usesCredits ? row.quantityNanos ?? 0 : nil))
    }

    /// Every part's rows, in part order, each account's sorted by time (a stable sort: rows of
    /// one time keep their file order), so any number of threads gives the same rows.
    package static func merged(_ parts: [AccountUsage], template: AccountUsage) -> AccountUsage {
        var all = template.emptyCopy()
        for part in parts {
            for (account, rows) in part.rows { all.rows[account, default: []].append(contentsOf: rows) }
        }
        for account in all.rows.keys {
            let indexed = (all.rows[account] ?? []).enumerated().sorted {
                ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
            }
            all.rows[account] = indexed.map(\.element)
        }
        return all
    }
}
