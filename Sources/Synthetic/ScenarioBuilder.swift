import Ingest
import Support

/// Builds households (a purchaser and up to five family members) and what happened to them:
/// renewals, refunds, reversals, exits, upgrades, expiries, consumption requests; and how the
/// app's server served each account, including servers that never revoked members.
struct ScenarioBuilder {
    var random: SeededRandom
    let windowStart: Int64
    let windowEnd: Int64
    /// Events are generated a few days past the window, so a closed month sees late notifications.
    let horizon: Int64

    var transactions: [SyntheticTransaction] = []
    private(set) var notifications: [SyntheticNotification] = []
    /// accounts.csv rows: account, original transaction id (may be empty), token.
    var accountRows: [(account: String, original: String, token: String)] = []
    private(set) var scenarios: [String: Int] = [:]
    /// consent.csv and deliveries.csv rows.
    var consentRows: [(account: String, consented: Bool, at: Int64)] = []
    var deliveryRows: [(transaction: String, status: DeliveryStatus, at: Int64)] = []
    private(set) var accountCount = 0
    private var nextTransaction: Int64 = 2_000_000_700_000_000

    static let minute: Int64 = 60_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    init(seed: UInt64, windowStart: Int64, windowEnd: Int64) {
        random = SeededRandom(seed: seed)
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        horizon = windowEnd + 3 * ScenarioBuilder.day
    }

    mutating func count(_ scenario: String, _ n: Int = 1) { scenarios[scenario, default: 0] += n }

    mutating func newAccount(prefix: String = "acct") -> String {
        accountCount += 1
        return "\(prefix)-" + String(accountCount).leftPadded(to: 6)
    }

    mutating func newTransactionID() -> String {
        nextTransaction += 1 + random.below(40)
        return String(nextTransaction)
    }

    mutating func uuid() -> String {
        let hex = String(random.next(), radix: 16).leftPadded(to: 16) + String(random.next(), radix: 16).leftPadded(to: 16)
        let chars = Array(hex.uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }

    mutating func notify(
        _ type: NotificationType, _ subtype: NotificationSubtype?, at signed: Int64, _ copy: SyntheticTransaction,
        reason: ConsumptionReason? = nil, renewal: SyntheticRenewal? = nil
    ) {
        guard signed < horizon else { return }
        if signed >= windowEnd { count("late_event") }
        notifications.append(
            SyntheticNotification(
                type: type, subtype: subtype, signed: signed, transaction: copy, consumptionReason: reason, uuid: uuid(),
                renewal: renewal))
    }

    /// An account that never bought anything: its use is unlinked cost.
    mutating func unlinkedAccount() -> (String, [ServedSpan]) {
        count("unlinked_account")
        let account = newAccount(prefix: "anon")
        let from = windowStart + random.below(windowEnd - windowStart - ScenarioBuilder.day)
        return (account, [ServedSpan(from: from, to: from + random.between(ScenarioBuilder.hour, 10 * ScenarioBuilder.day))])
    }

    /// A lifetime purchase a family member made alone: the second valid transaction that keeps
    /// them entitled after the family's purchase is refunded.
    mutating func ownPurchase(_ transaction: SyntheticTransaction, account: String, token: String) {
        transactions.append(transaction)
        notify(.oneTimeCharge, nil, at: transaction.purchase + random.between(1000, 5000), transaction)
        accountRows.append((account, transaction.originalID, token))
    }

    /// Test purchases in the Sandbox: they must change nothing in a Production report.
    mutating func sandboxNoise() {
        count("sandbox_notification")
        let id = newTransactionID()
        let purchase = windowStart + random.below(windowEnd - windowStart)
        var transaction = SyntheticTransaction(
            id: id, originalID: id, productID: SyntheticCatalog.monthly, type: .autoRenewable, ownership: .purchased,
            purchase: purchase, expires: CivilDate.addingMonths(Timestamp(milliseconds: purchase), 1).milliseconds,
            price: SyntheticCatalog.price(SyntheticCatalog.monthly), currency: "USD", token: nil, webOrderLineItemID: nil,
            appTransactionID: "sandbox-app", groupID: SyntheticCatalog.group)
        transaction.environment = "Sandbox"
        notify(.subscribed, .initialBuy, at: purchase + 2000, transaction)
        notifications[notifications.count - 1].environment = "Sandbox"
    }
}
