/// Every file of a report folder that `publish` loads, typed from docs/outputs.md.
///
/// A test holds
/// each list of columns to the header the report writes, so the two cannot drift apart.
package enum OutputTables {
    /// The window, classes and counts of `summary.csv` and `totals.csv` (which has no `product_id`).
    private static func figures(product: Bool) -> [(String, ColumnKind)] {
        let window: [(String, ColumnKind)] = [("period_start", .date), ("period_end", .date), ("as_of", .timestamp)]
        let money: [(String, ColumnKind)] = [
            "cost_total", "cost_paid", "cost_family_shared", "cost_premature", "cost_after_refund",
            "cost_after_family_exit", "cost_after_expiry", "cost_unentitled", "cost_unlinked", "leaked_cost",
            "leaked_cost_beyond_grace",
        ].map { ($0, .money) }
        let counts: [(String, ColumnKind)] = [
            "leaked_accounts", "refunds", "refunds_prorated", "refund_reversals", "family_refunds", "family_exits",
        ].map { ($0, .count) }
        let refunds: [(String, ColumnKind)] = [
            ("refunded_amount", .money), ("refund_sunk_cost", .money), ("recurring_loss_run_rate", .money),
            ("consumption_requests", .count), ("consumption_granted", .count), ("consumption_declined", .count),
            ("cost_billing_grace", .money), ("paid_transactions", .count), ("refund_rate", .rate),
            ("cost_unknown_ownership", .money),
        ]
        return window + (product ? [("product_id", .text)] : []) + [("currency", .text)] + money + counts + refunds
    }

    /// `trend.csv`, whose months repeat in every later label (`LatestViews`).
    package static let trend = OutputTable(
        "trend.csv", [("month", .text), ("class", .text), ("currency", .text), ("cost", .money)])

    package static let all: [OutputTable] = [
        OutputTable("summary.csv", figures(product: true)),
        OutputTable("totals.csv", figures(product: false)),
        trend,
        OutputTable(
            "cost_by_day.csv",
            [("day", .date), ("category", .text), ("class", .text), ("currency", .text), ("rows", .count), ("cost", .money)]),
        OutputTable(
            "refunds.csv",
            [
                ("transaction_id", .text), ("original_transaction_id", .text), ("product_id", .text),
                ("product_type", .text), ("account_id", .text), ("purchase_date", .timestamp),
                ("revocation_date", .timestamp), ("revocation_kind", .text), ("revocation_reason", .text),
                ("revocation_percentage", .count), ("price", .money), ("price_currency", .text),
                ("refunded_amount", .money), ("family_members", .count), ("family_link_method", .text),
                ("cost_purchaser", .money), ("cost_family", .money), ("cost_after_revocation", .money),
                ("sunk_cost", .money), ("currency", .text), ("refunded_amount_converted", .money),
            ]),
        OutputTable(
            "leaks.csv",
            [
                ("account_id", .text), ("transaction_id", .text), ("original_transaction_id", .text),
                ("product_id", .text), ("ownership", .text), ("end_kind", .text), ("access_end", .timestamp),
                ("notified_at", .timestamp), ("cost_before_notice", .money), ("cost_within_grace", .money),
                ("cost_beyond_grace", .money), ("first_cost_at", .timestamp), ("last_cost_at", .timestamp),
                ("currency", .text),
            ]),
        OutputTable(
            "subscription_loss.csv",
            [
                ("account_id", .text), ("original_transaction_id", .text), ("product_id", .text),
                ("ownership", .text), ("period", .text), ("access_end", .timestamp), ("leaked_periods", .count),
                ("leaked_cost", .money), ("cost_per_period", .money), ("still_leaking", .boolean),
                ("run_rate_30d", .money), ("currency", .text), ("billing_grace_cost", .money),
            ]),
        OutputTable(
            "family_links.csv",
            [
                ("member_transaction_id", .text), ("member_account_id", .text), ("product_id", .text),
                ("purchaser_transaction_id", .text), ("link_method", .text), ("confidence", .text),
            ]),
        OutputTable(
            "family_spend.csv",
            [
                ("purchaser_transaction_id", .text), ("product_id", .text), ("role", .text), ("account_id", .text),
                ("transaction_id", .text), ("link_method", .text), ("cost_entitled", .money),
                ("cost_after_end", .money), ("cost_total", .money), ("currency", .text),
            ]),
        OutputTable(
            "allocation.csv",
            [
                ("day", .date), ("service_name", .text), ("charge_category", .text), ("category", .text),
                ("outcome", .text), ("reason", .text), ("currency", .text), ("pool_rows", .count), ("cost", .money),
                ("usage_rows", .count),
            ], addedIn: "0.10.0"),
        OutputTable(
            "consumption_requests.csv",
            [
                ("notification_uuid", .text), ("transaction_id", .text), ("product_id", .text),
                ("account_id", .text), ("reason", .text), ("received_at", .timestamp), ("respond_by", .timestamp),
                ("customer_consented", .boolean), ("delivery_status", .text), ("consumption_percentage", .count),
                ("refund_preference", .text), ("basis", .text), ("outcome", .text), ("outcome_at", .timestamp),
                ("delivered_cost", .money), ("past_respond_by", .boolean),
                // Written with --journal only.
                ("answer_state", .text), ("answered_at", .timestamp), ("answered_in_time", .boolean),
                ("apple_error_code", .count),
            ]),
        OutputTable("consumption_responses.jsonl", [("transaction_id", .text), ("body", .json)], jsonLines: true),
        OutputTable(
            "rejects.csv",
            [
                ("file", .text), ("line", .count), ("field", .text), ("value", .text), ("reason", .text),
                ("rows", .count),
            ]),
    ]

    /// One row per publish: what was loaded, from which inputs, by which version.
    package static let runs = OutputTable(
        "runs",
        [
            ("period_start", .date), ("period_end", .date), ("as_of", .timestamp), ("version", .text),
            ("inputs", .json), ("tables", .json), ("rows_published", .count), ("run_json", .json),
        ])
}
