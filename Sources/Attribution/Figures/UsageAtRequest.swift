import Ingest
import Ledger
import Support

/// How much of a purchase was used when its refund was requested, in milliunits, and in words.
struct Usage {
    var share: Int64
    var text: String
    /// Auto-renewables never send a percentage: Apple works it out itself.
    var sentAsPercentage: Bool

    static let none = Usage(share: 0, text: "no cost served on it", sentAsPercentage: true)
}

/// Works out use at the time of a request: credits drawn for a pack, the elapsed share of the
/// period for a subscription, whether anything was served for the rest.
struct UsageAtRequest {
    let ledger: Ledger
    let totals: AttributionTotals
    let credits: CreditLedger
    let draws: CreditDraws

    func used(_ index: Int, at received: Timestamp) -> Usage {
        let transaction = ledger.transactions[index]
        let servedBefore = totals.firstTiedAt[index] <= received.milliseconds
        switch transaction.type {
        case .consumable:
            if let granted = credits.credits(ofTransaction: index, ledger: ledger), granted > 0 {
                let drawn = draws.drawn(fromTransaction: index, through: received)
                let share = min(100_000, Int64(Int128(drawn) * 100_000 / Int128(granted * Money.nanosPerUnit)))
                return Usage(
                    share: share, text: "\(drawn / Money.nanosPerUnit) of \(granted) credits used", sentAsPercentage: true)
            }
            return servedBefore
                ? Usage(share: 100_000, text: "cost served on it (no credits in products.csv)", sentAsPercentage: true) : .none
        case .autoRenewable:
            guard servedBefore, let expires = transaction.record.expiresDate else {
                return Usage(share: 0, text: Usage.none.text, sentAsPercentage: false)
            }
            let length = max(1, expires.milliseconds - transaction.grantStart.milliseconds)
            let elapsed = max(0, min(length, received.milliseconds - transaction.grantStart.milliseconds))
            let share = Int64(Int128(elapsed) * 100_000 / Int128(length))
            return Usage(
                share: share, text: "used, \(ConsumptionAnswer.percent(share)) of the period elapsed", sentAsPercentage: false)
        default:
            return servedBefore ? Usage(share: 100_000, text: "used (cost served on it)", sentAsPercentage: true) : .none
        }
    }
}
