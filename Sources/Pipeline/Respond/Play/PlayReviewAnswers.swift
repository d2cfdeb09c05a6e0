import Attribution
import Ingest
import Ledger
import Support

/// The answers `respond --store play` works out this run: one figure for each review whose
/// order Google confirmed and whose account play/ names, from that account's cost rows alone.
struct PlayReviewAnswers {
    enum Answer {
        case figure(PlayReviewFigure)
        /// What the answer waits for (an account for the order's purchase).
        case waiting(String)
    }

    var answers: [String: Answer] = [:]

    /// The cost files are read once, for every account answered, and only when one is.
    init(
        _ reviews: [PlayNotification], confirmed: [String: PlayRespondRun.Confirmation], input: PlayInput,
        layout: InputLayout, options: RunOptions, rejects: RejectLog, asOf: Timestamp
    ) throws {
        let accounts = PlayAccounts(input)
        var wanted: [(review: PlayNotification, order: PlayOrder, account: String)] = []
        for review in reviews {
            guard let token = review.pendingRefundToken, case .order(let order)? = confirmed[token] else { continue }
            guard let account = accounts.account(ofToken: order.purchaseToken) else {
                answers[token] = .waiting(
                    "play/ names no account for the purchase of order \(order.orderID): run refund-cost fetch purchases "
                        + "(the purchase's obfuscatedExternalAccountId), then respond")
                continue
            }
            wanted.append((review, order, account))
        }
        guard !wanted.isEmpty else { return }
        let products = try layout.products.map { try ProductCatalogReader.read(path: $0, rejects: rejects) } ?? [:]
        let evidence = try ConsumptionEvidence.read(consent: layout.consent, deliveries: layout.deliveries, rejects: rejects)
        let sink = AccountUsage(accounts: Set(wanted.map(\.account)))
        let usage = layout.costFiles.filter { !FocusPoolFile.isPoolFile($0) }
        let collected = try ParallelCostReading.collect(
            files: usage, spans: [:], root: options.data, mapping: options.costColumns, sink: sink, threads: options.threads,
            registry: { RequestRegistry() }, countsRequestsFirst: true)
        for reject in collected.headerRejects + collected.rowRejects { try rejects.record(reject) }
        let rows = AccountUsage.merged(collected.sinks, template: sink).rows
        for (review, order, account) in wanted {
            // The confirmed order stands for play/'s copy of it, with play/'s voids.
            let held = PlayOrderAccess.orders(of: account, in: inputHolding(order, input), asOf: asOf)
            guard let access = held.first(where: { $0.order.orderID == order.orderID }) else {
                answers[review.pendingRefundToken ?? ""] = .waiting(
                    "Google's order \(order.orderID) was created after \(asOf): not answered as of then")
                continue
            }
            let figure = PlayReviewFigure.of(
                review: review, order: access, account: account, held: held, rows: rows[account] ?? [], products: products,
                evidence: evidence, policy: options.consumptionPolicy)
            answers[review.pendingRefundToken ?? ""] = .figure(figure)
        }
    }

    /// `input` with `order` in place of its copy (or beside what it holds).
    private func inputHolding(_ order: PlayOrder, _ input: PlayInput) -> PlayInput {
        var copy = input
        copy.orders = input.orders.filter { $0.orderID != order.orderID } + [order]
        return copy
    }
}
