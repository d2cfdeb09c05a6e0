import Attribution
import Ingest
import Ledger
import Support

/// The part of a ledger snapshot that one group of accounts needs (`snapshot --account-groups
/// G`): what a partial builds the ledger of those accounts from, so that no partial holds the
/// ledger of every account.
///
/// It holds the latest copy of the group's transactions, the notifications and renewal info
/// about them, accounts.csv's rows of its accounts, and, of every account, only the refunds by
/// product (what ended a family member's access depends on them). The cost rows of a group's
/// accounts are attributed against it; their totals are then moved to the whole ledger's
/// indices (`transactions`, `accounts`, `products`), so the partial and the merge are what
/// they are without groups. Attribution reads no family link: the links, which cross
/// accounts, are worked out by the merge from the whole ledger.
package struct GroupSnapshot: Sendable, Codable {
    package static let kind = "ledger group snapshot"
    package static let version = PackedVersions.groupSnapshot

    package var group: AccountGroup
    /// The group's part of the snapshot; its rejects, layout, options and key are the whole one's.
    package var snapshot: LedgerSnapshot
    /// SHA-256 of the whole snapshot's content: what the partials name it by.
    package var whole: String
    /// For each transaction and account of the group's ledger, its index in the whole ledger.
    package var transactions: [Int32]
    package var accounts: [Int32]
    /// The whole ledger's products (`ProductIndex.keys`).
    package var products: [ProductKey]
    package var refunds: RefundTimes

    /// The group snapshot of `group` of `groups`, beside the whole snapshot at `path`.
    package static func path(besides path: String, group: AccountGroup) -> String {
        "\(path).group-\(group.group)-of-\(group.groups)"
    }

    /// What every group's part is cut by, worked out once from the whole ledger, which can go
    /// before the parts are written: every account's refunds, the products, each account's
    /// group, and each transaction's account and ids.
    struct Cut {
        let groups: Int
        let refunds: RefundTimes
        let products: [ProductKey]
        let groupOfAccount: [Int]
        /// The ledger's accounts (their ids), in its order.
        let accounts: [String]
        /// Of each transaction of the ledger, in its order: the account holding it (-1 for
        /// none), and its record (the box the snapshot's records share: no copy).
        let holders: [Int32]
        let records: [RecordBox]

        init(_ ledger: Ledger, groups: Int) {
            self.groups = groups
            refunds = RefundTimes(ledger)
            products = ProductIndex.keys(of: ledger)
            groupOfAccount = ledger.accounts.map { AccountGroup.of($0, groups: groups) }
            accounts = ledger.accounts
            (holders, records) = ledger.withTransactions { transactions in
                (transactions.map { $0.account.map(Int32.init) ?? -1 }, transactions.map(\.box))
            }
        }
    }

    /// The part of `whole` (cut as `cut`, from the ledger built from it, and whose content
    /// digest is `sha256`) for `group`.
    init(_ whole: LedgerSnapshot, cut: Cut, sha256: String, group: AccountGroup) {
        self.group = group
        self.whole = sha256
        refunds = cut.refunds
        products = cut.products
        let inGroup = cut.groupOfAccount.map { $0 == group.group }
        func ofGroup(_ transaction: Int) -> Bool { cut.holders[transaction] >= 0 && inGroup[Int(cut.holders[transaction])] }
        // Every transaction of the group's accounts, and every other transaction of the same
        // original transaction (a renewal another account or no account holds): what ended a
        // transaction's grace is read across its subscription.
        var originals = Set<PackedID>()
        for index in cut.holders.indices where ofGroup(index) {
            originals.insert(cut.records[index].record.packedOriginalTransactionID)
        }
        var ids = Set<PackedID>()
        var chosen: [Int32] = []
        var holders = Set<Int>()
        for index in cut.holders.indices
        where ofGroup(index) || originals.contains(cut.records[index].record.packedOriginalTransactionID) {
            chosen.append(Int32(index))
            ids.insert(cut.records[index].record.packedTransactionID)
            if cut.holders[index] >= 0 { holders.insert(Int(cut.holders[index])) }
        }
        // The accounts holding them, in the whole ledger's order: the group ledger's accounts.
        accounts = holders.sorted().map { Int32($0) }
        transactions = chosen
        var part = whole
        var input = whole.input
        // Ids are told apart by their bytes, as their packed forms are (`PackedID`).
        let kept = input.transactions.indices.filter { ids.contains(input.transactions[$0].record.packedTransactionID) }
        input.transactions = kept.map { input.transactions[$0] }
        input.copyCounts = kept.map { input.copyCounts[$0] }
        input.firstRevokedCopies = kept.map { input.firstRevokedCopies[$0] }
        input.notifications = input.notifications.filter { notification in
            notification.transaction.map { ids.contains($0.packedTransactionID) } ?? false
        }
        func about(_ renewal: RenewalRecord) -> Bool {
            renewal.transactionID.map { ids.contains(PackedID($0)) }
                ?? originals.contains(PackedID(renewal.originalTransactionID))
        }
        input.renewals = input.renewals.filter { about($0.value) }
        input.graceRenewals = input.graceRenewals.filter { about($0.value) }
        input.playOrders = input.playOrders.filter { ids.contains(PackedID($0.order.orderID)) }
        part.input = input
        let names = Set(accounts.map { cut.accounts[Int($0)] })
        part.accountLinks = whole.accountLinks.filter { names.contains($0.accountID) }
        // Attribution reads no consent or delivery: the merge answers from the whole snapshot's.
        part.evidence = ConsumptionEvidence()
        snapshot = part
    }

    /// The ledger of the group's accounts, the part's records handed over to it (the part keeps
    /// none).
    mutating func loadHandingOverRecords() throws -> LedgerLoad {
        try snapshot.loadHandingOverRecords(refundsOfEveryAccount: refunds)
    }

    /// Empty totals at the whole ledger's indices that keep, per transaction, only what rows
    /// touched: never an array over every transaction.
    func emptyWholeTotals() -> AttributionTotals {
        var totals = AttributionTotals(products: products.count, transactions: 0)
        totals.touchedTransactions = TransactionSums()
        return totals
    }

    /// Adds `local`, worked out against the group's ledger (whose products are `localProducts`),
    /// into `whole`, totals at the whole ledger's indices.
    func add(_ local: AttributionTotals, localProducts: [ProductKey], into whole: inout AttributionTotals) throws {
        do {
            try whole.merge(moved(local, localProducts: localProducts))
        } catch {
            throw CostSumError(file: nil, underlying: error)
        }
    }

    /// `totals`, worked out against the group's ledger (whose products are `local`), at the
    /// whole ledger's indices, its per-transaction sums for the transactions its rows touched.
    func moved(_ totals: AttributionTotals, localProducts local: [ProductKey]) -> AttributionTotals {
        let position = Dictionary(uniqueKeysWithValues: products.enumerated().map { ($1, Int32($0)) })
        return totals.moved(
            transactions: transactions, accounts: accounts, products: local.map { position[$0] ?? 0 },
            productCount: products.count)
    }
}
