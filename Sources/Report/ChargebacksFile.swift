import Attribution
import Support

/// `chargebacks.csv`: each Google Play order charged back in the window and what it lost.
enum ChargebacksFile {
    static let file = OutputFile(
        "chargebacks.csv",
        [
            ("order_id", .text), ("original_order_id", .text), ("product_id", .text), ("product_type", .text),
            ("account_id", .text), ("purchase_date", .timestamp), ("chargeback_date", .timestamp), ("units", .count),
            ("quantity", .count), ("void_source", .text), ("received", .money), ("received_currency", .text),
            ("received_converted", .money), ("chargeback_fee", .money), ("delivery_cost", .money),
            ("cost_after_chargeback", .money), ("lost", .money), ("currency", .text), ("store", .text),
        ], addedIn: "0.16.0")

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
        for chargeback in figures.chargebacks {
            let order = chargeback.transaction
            file.text(order.id)
            file.text(order.originalID)
            file.text(order.productID)
            file.text(order.productType)
            file.text(order.account ?? "")
            file.timestamp(order.purchaseDate)
            file.timestamp(chargeback.chargedBackAt)
            file.integer(Int(chargeback.units))
            file.integer(Int(chargeback.quantity))
            file.text(chargeback.voidSource)
            if let received = chargeback.received { file.money(received.money) } else { file.empty() }
            file.text(chargeback.received?.currency.description ?? "")
            if let converted = chargeback.receivedInReportCurrency { file.money(converted) } else { file.empty() }
            file.money(chargeback.fee)
            file.money(chargeback.deliveryCost)
            file.money(chargeback.costAfterChargeback)
            file.money(chargeback.lost)
            file.text(figures.currency.description)
            file.text(order.store.rawValue)
            try file.endRow()
        }
        try file.commit()
    }
}
