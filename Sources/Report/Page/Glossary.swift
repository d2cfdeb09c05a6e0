import Attribution

/// The words the page uses for what it counts, for a reader who has not read docs/outputs.md.
enum Glossary {
    /// The page's words; with `bothStores`, the classes of no purchase speak of either store's,
    /// and the words of Google Play follow.
    static func terms(bothStores: Bool) -> [(String, String)] {
        CostClass.ruleOrder.filter { $0 != .unknownOwnership }.map { costClass in
            let meaning = (bothStores ? glossedBothStores[costClass] : nil) ?? glossed[costClass]
            return (PageText.words(costClass), meaning ?? ClassSection.explanations[costClass] ?? "")
        } + common + (bothStores ? playTerms : [])
    }

    private static let common: [(String, String)] = [
        ("leak", "after refund and after family exit together: cost served once access had ended"),
        (
            "beyond grace",
            "the part of a leak served later than the notice plus the grace period (--grace, 1 hour by default): what the server should have cut off"
        ),
        (
            "sunk cost",
            "what a refunded purchase cost to serve (to the purchaser, to the family, and after the refund), beyond the money paid back"
        ),
        ("recurring loss", "what subscriptions still leaking cost every 30 days if nobody fixes them"),
        ("refund rate", "refunds in the window divided by the purchases and renewals of the window"),
    ]

    /// Fuller than the one line of the table: the classes a reader asks about.
    private static let glossed: [CostClass: String] = [
        .premature:
            "served in the minutes before Apple issued the transaction that then granted access (within --premature-window, 2 hours by default): paid for, just early",
        .unentitled:
            "an account that holds App Store transactions, served when none of them gave access and none was about to: free use",
        .unlinked:
            "an account that no App Store transaction belongs to: usage the App Store data cannot explain (a free tier, a missing accounts.csv line, a server bug)",
        .billingGrace:
            "served while Apple retried a failed renewal and kept access open, in a grace period that ended without payment: a loss, not a leak",
    ]

    /// The classes of no purchase, on a page of both stores.
    private static let glossedBothStores: [CostClass: String] = [
        .unentitled:
            "an account that holds purchases of either store, served when none of them gave access and none was about to: free use",
        .unlinked:
            "an account that no purchase of either store belongs to: usage the stores' data cannot explain (a free tier, a missing accounts.csv line or Play purchase, a server bug)",
    ]

    /// The words of both stores, for a page that has Google Play's orders.
    private static let playTerms: [(String, String)] = [
        ("store", "App Store or Google Play: where the purchase a cost row is tied to was made"),
        (
            "chargeback",
            "a Google Play buyer's bank took the money back: the app loses what Google had passed on for the order, what serving it had cost, and the bank's fee"
        ),
        (
            "refund review",
            "Google asking the app, within 24 hours, for its refund preference and the customer's use before it decides a chargeback"
        ),
    ]

    static func html(_ figures: ReportFigures) -> String {
        var text = "<h2>Words on this page</h2>\n<dl class=\"glossary\">"
        for (term, meaning) in terms(bothStores: StoreSection.shows(figures)) {
            text += "<dt>\(PageText.escape(term))</dt><dd>\(PageText.escape(meaning))</dd>"
        }
        return text + "</dl>\n"
    }
}
