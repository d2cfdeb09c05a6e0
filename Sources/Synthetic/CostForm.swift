/// How `generate` writes its delivery cost: the same rows, in the shapes people have them.
package enum CostForm: String, Sendable, Hashable, CaseIterable {
    /// Per-account rows that carry their cost (`timestamp,account_id,category,cost,...`).
    case rows
    /// A FOCUS bill (`costs/focus-bill.csv`, one row per day and service, in USD) plus usage
    /// rows without cost for compute, api and storage, and `allocation.csv`; payouts stay
    /// per-account rows. `allocated/` holds the per-account rows the allocation makes, to
    /// compare a report of the bill with one of those rows.
    case focus
    /// The api requests in USD as Helicone's request export (`costs/helicone-YYYY-MM.csv`, read
    /// with `--cost-format 'helicone-*.csv:helicone'`); every other row as `rows`.
    case helicone
}
