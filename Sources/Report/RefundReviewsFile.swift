import Attribution
import Support

/// `refund_reviews.csv`: each Google Play pending refund review notified in the window, what
/// `respond --store play` did about it (with `--play-journal`) and whether Google voided the order since.
enum RefundReviewsFile {
    static let file = OutputFile(
        "refund_reviews.csv",
        [
            ("order_id", .text), ("product_id", .text), ("account_id", .text), ("notified_at", .timestamp),
            ("respond_by", .timestamp), ("past_respond_by", .boolean), ("outcome", .text), ("outcome_at", .timestamp),
            ("void_reason", .text), ("price", .money), ("price_voided", .money), ("currency", .text),
            ("answer_state", .text), ("answered_at", .timestamp), ("answered_in_time", .boolean),
            ("sent_preference", .text), ("decided_as_preferred", .boolean), ("store", .text), ("before_journal", .boolean),
        ], addedIn: "0.16.0")

    static func write(_ figures: ReportFigures, to folder: String) throws {
        let file = try CSVFileWriter(path: folder + "/" + Self.file.name, header: Self.file.header)
        for review in figures.refundReviews {
            file.text(review.order.id)
            file.text(review.order.productID)
            file.text(review.order.account ?? "")
            file.timestamp(review.notifiedAt)
            file.timestamp(review.respondBy)
            file.bool(review.pastRespondBy)
            file.text(review.voided == nil ? "not_voided" : "voided")
            file.timestamp(review.voided?.voidedTime)
            file.text(review.voided.map { $0.reason?.name ?? $0.rawReason.map(String.init) ?? "" } ?? "")
            if let price = review.price { file.money(price) } else { file.empty() }
            if let voided = review.priceVoided { file.money(voided) } else { file.empty() }
            file.text(figures.currency.description)
            // Without a journal nothing is known of the answers: those columns are empty.
            let answered = review.answered
            file.text(answered?.state ?? "")
            file.timestamp(answered?.sentAt)
            if let answered { file.bool(answered.inTime) } else { file.empty() }
            file.text(answered?.sentPreference ?? "")
            if let preferred = review.decidedAsPreferred { file.bool(preferred) } else { file.empty() }
            file.text(review.order.store.rawValue)
            if let answered { file.bool(answered.beforeJournal) } else { file.empty() }
            try file.endRow()
        }
        try file.commit()
    }
}
