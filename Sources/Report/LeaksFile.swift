import Attribution
import Support

/// `leaks.csv`: per account and ended transaction, cost after the access ended, split by
/// whether the server could have known (notice) and how long it had (grace).
enum LeaksFile {
    static let header = [
        "account_id", "transaction_id", "original_transaction_id", "product_id", "ownership", "end_kind", "access_end",
        "notified_at", "cost_before_notice", "cost_within_grace", "cost_beyond_grace", "first_cost_at", "last_cost_at",
        "currency",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/leaks.csv", header: header)
        for leak in figures.leaks {
            let transaction = leak.transaction
            file.text(leak.account)
            file.text(transaction.id)
            file.text(transaction.originalID)
            file.text(transaction.productID)
            file.text(transaction.ownership.reportName)
            file.text(transaction.endKind.rawValue)
            file.timestamp(transaction.end?.at)
            file.timestamp(transaction.end?.noticedAt)
            for phase in LeakPhase.allCases { file.money(leak.cell.byPhase[phase.rawValue]) }
            file.timestamp(leak.cell.first)
            file.timestamp(leak.cell.last)
            file.text(figures.currency.description)
            try file.endRow()
        }
        try file.commit()
    }
}

/// `subscription_loss.csv`: leaked auto-renewable access and what it costs per period.
enum SubscriptionLossFile {
    static let header = [
        "account_id", "original_transaction_id", "product_id", "ownership", "period", "access_end", "leaked_periods",
        "leaked_cost", "cost_per_period", "still_leaking", "run_rate_30d", "currency", "billing_grace_cost",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/subscription_loss.csv", header: header)
        for loss in figures.subscriptionLosses {
            let transaction = loss.transaction
            file.text(loss.account)
            file.text(transaction.originalID)
            file.text(transaction.productID)
            file.text(transaction.ownership.reportName)
            file.text(loss.period.iso)
            file.timestamp(transaction.end?.at)
            file.integer(loss.leakedPeriods)
            file.money(loss.leakedCost)
            file.money(loss.costPerPeriod)
            file.bool(loss.stillLeaking)
            file.money(loss.runRate30Days)
            file.text(figures.currency.description)
            file.money(loss.billingGraceCost)
            try file.endRow()
        }
        try file.commit()
    }
}

/// `family_links.csv`: every FAMILY_SHARED transaction and the purchase it was linked to.
enum FamilyLinksFile {
    static let header = [
        "member_transaction_id", "member_account_id", "product_id", "purchaser_transaction_id", "link_method", "confidence",
    ]

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/family_links.csv", header: header)
        for link in figures.familyLinks {
            file.text(link.member.id)
            file.text(link.member.account ?? "")
            file.text(link.member.productID)
            file.text(link.purchaserTransactionID ?? "")
            file.text(link.method.rawValue)
            file.text(link.method.confidence)
            try file.endRow()
        }
        try file.commit()
    }
}
