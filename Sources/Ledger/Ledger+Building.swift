import Ingest
import Support

extension Ledger {
    /// Rebuilds the ledger from the whole history (docs/domain.md rule 2): for every transaction the
    /// latest copy signed by the as-of time, then what ended it, who holds it, and how members
    /// link to purchases.
    ///
    /// A ledger of some accounts (a distributed run cut by account) is given the refunds of
    /// every account, `refundsOfEveryAccount`: what ended a member's access depends on them.
    ///
    /// `input` and `accountLinks` are let go as soon as each has been read: when the caller
    /// handed them over rather than kept a copy, their arrays are freed before the access
    /// timelines are built (the transactions' records live on in the ledger's boxes).
    package init(
        input: consuming AppStoreInput, accountLinks: consuming [AccountLinkRow], products: [String: Product],
        options: LedgerOptions,
        rejects: RejectLog, refundsOfEveryAccount: RefundTimes? = nil
    ) throws {
        self.options = options
        self.products = products
        // Every notification has told the ledger what it had to; the figures read only these.
        // Counted first: an array filled as it grows holds up to twice its rows.
        let keptWhole = { (notification: NotificationRecord) in
            notification.type.map(Ledger.notificationTypesKeptWhole.contains) ?? false
        }
        var notifications: [NotificationRecord] = []
        notifications.reserveCapacity(input.notifications.count(where: keptWhole))
        notifications.append(contentsOf: input.notifications.lazy.filter(keptWhole))
        self.notifications = notifications
        refundDecisions = RefundDecision.sorted(input.notifications)
        var (transactions, purchases) = Ledger.latestStates(
            input, products: products, asOf: options.asOf, refundsOfEveryAccount: refundsOfEveryAccount)
        for held in input.playOrders {
            if let index = Ledger.index(of: held.order.orderID, in: transactions), transactions[index].store == .googlePlay {
                playOrders[index] = held
            }
        }
        _ = consume input
        let holders = try Ledger.holders(of: &transactions, links: accountLinks, play: playOrders, rejects: rejects)
        accounts = holders.accounts
        transactionsByAccount = holders.byAccount
        accountsWithoutTransactions = accountLinks.map(\.accountID).sortedUniqueByBytes()
            .filter { Ledger.index(ofAccount: $0, in: holders.accounts) == nil }
        _ = consume accountLinks
        linkConflicts = holders.conflicts
        unmatchedAppAccountTokens = holders.unmatchedTokens

        familyLinks = FamilyLinker.link(transactions, index: purchases)
        for link in familyLinks {
            if let purchaser = link.purchaser { membersByPurchase[purchaser, default: []].append(link.member) }
        }
        var timelines = AccessTimelines()
        for account in 0..<holders.byAccount.count {
            let indices = holders.byAccount[account]
            timelines.append(grants: indices.map { transactions[$0] }, indices: indices, prematureWindow: options.prematureWindow)
        }
        timelines.fit()
        self.timelines = timelines
        self.transactions = transactions
    }

    /// Every transaction's latest copy signed by the as-of time, in transaction-id order, with
    /// what ended its access (rules 2 and 3).
    private static func latestStates(
        _ input: AppStoreInput, products: [String: Product], asOf: Timestamp, refundsOfEveryAccount: RefundTimes?
    ) -> ([LedgerTransaction], PurchaseIndex) {
        // Ingestion kept the latest copy of each transaction signed by the as-of time, boxed: the
        // ledger shares the boxes, it does not copy the records.
        let records = input.transactions
        let kept = records.indices.filter { records[$0].record.signedDate <= asOf }
        // Each id's number worked out once; the text is read only when two numbers tie (ids that
        // are not numbers), so no key holds an id's text for every transaction.
        let numbers = kept.map { TransactionID.number(records[$0].record.transactionID) }
        let facts = NotificationFacts(input.notifications, firstRevokedCopy: input.firstRevokedCopyByID())
        var transactions = kept.indices.sorted { a, b in
            numbers[a] != numbers[b]
                ? numbers[a] < numbers[b]
                : records[kept[a]].record.transactionID.bytesPrecede(records[kept[b]].record.transactionID)
        }.map { position -> LedgerTransaction in
            let box = records[kept[position]]
            // Raw fields read straight from the box (a computed property would copy the record).
            let type = box.record.rawType.flatMap(ProductType.init(rawValue:)) ?? products[box.record.productID]?.type
            let ownership = box.record.rawOwnership.map(Ownership.init(rawValue:)) ?? .purchased
            return LedgerTransaction(
                box: box, ownership: ownership, type: type, account: nil,
                grantsAccess: type != .consumable, end: nil, reversals: facts.reversals[box.record.transactionID] ?? [],
                copies: input.copyCounts[kept[position]])
        }
        var purchases = PurchaseIndex(transactions)
        purchases.refundsOfEveryAccount = refundsOfEveryAccount
        for index in transactions.indices {
            transactions[index].end = EndOfAccess.end(of: transactions[index], facts: facts, purchases: purchases)
        }
        BillingGraceFinder.attach(input.graceRenewals, to: &transactions)
        return (transactions, purchases)
    }

    /// Who holds each transaction: accounts.csv by original transaction id, then
    /// `appAccountToken`; a Google Play order, the account its purchase names.
    ///
    /// Sets each transaction's account; returns the accounts (sorted), each account's transactions by
    /// grant start, and the conflicts (also recorded as rejects).
    private static func holders(
        of transactions: inout [LedgerTransaction], links: [AccountLinkRow], play: [Int: PlayHeldOrder], rejects: RejectLog
    ) throws -> (accounts: [String], byAccount: AccountTransactions, conflicts: [Reject], unmatchedTokens: Int) {
        let directory = AccountDirectory(links)
        var conflicts: [Reject] = []
        var holder: [String?] = []
        holder.reserveCapacity(transactions.count)
        var unmatchedTokens = 0
        for index in transactions.indices {
            if let held = play[index] {
                holder.append(held.account)
                continue
            }
            let resolution = directory.account(for: transactions[index].box)
            if resolution.unmatchedToken { unmatchedTokens += 1 }
            if let conflict = resolution.conflict {
                conflicts.append(conflict)
                try rejects.record(conflict)
            }
            holder.append(resolution.account)
        }
        // Account ids are told apart by their bytes, as cost rows find theirs (`Attributor`).
        let accounts = holder.compactMap { $0 }.sortedUniqueByBytes()
        // Each holder's place found in the sorted names: no table of every account is built.
        var places: [Int32?] = []
        places.reserveCapacity(holder.count)
        for (index, name) in holder.enumerated() {
            let account = name.flatMap { Ledger.index(ofAccount: $0, in: accounts) }
            transactions[index].account = account
            places.append(account.map(Int32.init))
        }
        holder = []
        var byAccount = AccountTransactions(holders: places, accounts: accounts.count)
        transactions.withUnsafeBufferPointer { transactions in
            byAccount.sortEachAccount { AccessTimelines.startsBefore(transactions[$0], transactions[$1]) }
        }
        return (accounts, byAccount, conflicts, unmatchedTokens)
    }
}
