import Ingest
import Support

/// Options that change what the ledger answers.
package struct LedgerOptions: Sendable, Hashable {
    package var asOf: Timestamp
    /// Cost this long before a grant starts is `premature` (docs/domain.md rule 5).
    package var prematureWindow: TimeSpan

    package init(asOf: Timestamp, prematureWindow: TimeSpan = .hours(2)) {
        self.asOf = asOf
        self.prematureWindow = prematureWindow
    }
}

/// Every transaction's state as of the as-of time, the accounts holding them, the family
/// links, and each account's access over time (docs/domain.md rules 1-5 and 9).
package struct Ledger: Sendable {
    package var options: LedgerOptions
    /// Sorted by transaction id (`TransactionID`'s order), each id once: `index(of:)` searches it.
    package var transactions: [LedgerTransaction]
    /// Accounts holding at least one transaction, sorted by their bytes: `accountIndex(of:)`
    /// searches them.
    package var accounts: [String]
    /// Per account, its transactions' indices by `purchaseDate`.
    package var transactionsByAccount: AccountTransactions
    package var timelines: AccessTimelines
    /// One per FAMILY_SHARED transaction, in transaction order: `familyLink(ofMember:)`
    /// searches them.
    package var familyLinks: [FamilyLink]
    /// The notifications whose whole record the figures read (consumption requests and
    /// reversals), one per `notificationUUID`, in input order: the others are in the
    /// transactions' states and in `refundDecisions`.
    package var notifications: [NotificationRecord]
    /// What each REFUND, REVOKE and REFUND_DECLINED decided, one per `notificationUUID`, by
    /// transaction: `refundDecisions(of:)` finds a transaction's.
    package var refundDecisions: [RefundDecision]
    static let notificationTypesKeptWhole: Set<NotificationType> = [.consumptionRequest, .refundReversed]
    static let notificationTypesForFigures = notificationTypesKeptWhole.union(RefundDecision.types)

    package var products: [String: Product]
    /// The Google Play orders among `transactions`, by index: whose each is, what was voided of
    /// it and what it says the developer received (docs/domain.md rule 16).
    package var playOrders: [Int: PlayHeldOrder] = [:]
    /// accounts.csv accounts none of whose transactions were found.
    package var accountsWithoutTransactions: [String]
    /// Transactions whose `appAccountToken` points to another account than accounts.csv says.
    package var linkConflicts: [Reject]
    /// Transactions whose `appAccountToken` matches neither a token nor an account id of
    /// accounts.csv: counted, and not used to link.
    package var unmatchedAppAccountTokens = 0

    /// Access of an account (an index into `accounts`) at time `t`.
    @inline(__always)
    package func access(account: Int, at t: Timestamp) -> Access {
        timelines.access(account: account, at: t)
    }

    /// Calls `body` with the transactions in place, for a pass that reads a few fields of each
    /// (`transactions[index].ownership`).
    ///
    /// A `for` loop over the array, or a transaction bound to a name, copies the whole element:
    /// the reference to its record, its reversals and its end are retained and released, and
    /// the record's reference count is a cache miss a transaction, most of such a pass's time
    /// over a large ledger. A stored field read through the buffer copies that field alone; a
    /// computed one (`id`, `grantStart`) copies the transaction to call its getter, so read it
    /// from the box (`transactions[index].box.record.transactionID`).
    package func withTransactions<Result>(_ body: (UnsafeBufferPointer<LedgerTransaction>) throws -> Result) rethrows -> Result {
        try transactions.withUnsafeBufferPointer(body)
    }

    /// True when the ledger reads `notification` itself, beyond the transaction copy it carries:
    /// the figures read some (consumption requests, refund decisions, reversals), what ended a
    /// transaction's access is read from others (`NotificationFacts.reads`).
    ///
    /// Ingestion may leave the rest out: a renewal's or a purchase's notification tells nothing
    /// its transaction copy does not.
    package static func reads(_ notification: NotificationRecord) -> Bool {
        NotificationFacts.reads(notification) || notification.type.map(notificationTypesForFigures.contains) ?? false
    }

    /// Where the transaction `id` is in `transactions`.
    ///
    /// A binary search, not a table by id: a table would weigh about 40 bytes a transaction for
    /// the whole run, for the few thousand lookups the figures make (consumption requests,
    /// notifications by product).
    package func index(of id: String) -> Int? { Ledger.index(of: id, in: transactions) }

    /// Where the transaction `id` is in `transactions`, sorted by id.
    static func index(of id: String, in transactions: [LedgerTransaction]) -> Int? {
        let key = TransactionID.sortKey(id)
        let low = transactions.firstPlace { TransactionID.sortKey($0.box.record.transactionID) < key }
        guard low < transactions.count, transactions[low].box.record.transactionID.utf8.elementsEqual(id.utf8) else { return nil }
        return low
    }

    /// Where the account `id` is in `accounts`.
    ///
    /// A binary search, not a table by name: a table would weigh about 48 bytes an account for
    /// the whole run, for the few accounts looked up by name (`explain`, a test); cost rows find
    /// theirs through the attributor's own table.
    package func accountIndex(of id: String) -> Int? { Ledger.index(ofAccount: id, in: accounts) }

    /// Where the account `id` is in `accounts`, sorted by bytes.
    static func index(ofAccount id: String, in accounts: [String]) -> Int? {
        accounts.place(ofBytes: id) { $0 }
    }

    package func transaction(_ id: String) -> LedgerTransaction? {
        index(of: id).map { transactions[$0] }
    }

    /// Where the link of the FAMILY_SHARED transaction `member` is in `familyLinks`.
    ///
    /// A binary search (the links are in their members' order), not a table by member: the
    /// figures look up the members of refunded purchases alone.
    package func familyLink(ofMember member: Int) -> Int? {
        let low = familyLinks.firstPlace { $0.member < member }
        return low < familyLinks.count && familyLinks[low].member == member ? low : nil
    }

    /// The purchase a FAMILY_SHARED transaction is linked to, if the evidence was clear.
    package func purchaser(ofMember member: Int) -> Int? {
        familyLink(ofMember: member).flatMap { familyLinks[$0].purchaser }
    }

    /// The FAMILY_SHARED transactions linked to a PURCHASED one.
    package func members(ofPurchase purchase: Int) -> [Int] {
        membersByPurchase[purchase] ?? []
    }

    var membersByPurchase: [Int: [Int]] = [:]

    /// The refund decisions on the transaction whose id is `id` as records keep it (equal exactly
    /// when the texts' bytes are), in input order.
    package func refundDecisions(of id: PackedID) -> ArraySlice<RefundDecision> {
        let first = refundDecisions.firstPlace { $0.packedTransactionID < id }
        var end = first
        while end < refundDecisions.endIndex && refundDecisions[end].packedTransactionID == id { end += 1 }
        return refundDecisions[first..<end]
    }

    /// `REFUND_REVERSED` notifications, counted once each.
    package var reversalNotifications: [NotificationRecord] {
        notifications.filter { $0.type == .refundReversed }
    }
}
