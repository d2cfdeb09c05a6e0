import AppStoreAPI
import Attribution
import Ingest
import Ledger
import PlayAPI
import Support

/// What `respond --store play` needs beside what both stores share.
package struct PlayRespondOptions {
    /// The journal, the lock, the clock and the data, as Apple's answers have them; its window
    /// is Google's 24 hours.
    package var base: RespondOptions
    package var packageName: String
    /// Google's API: every order is confirmed with it before an answer, and answers go to it.
    ///
    /// Nil with `--dry-run`: play/'s own orders stand in, and nothing is sent.
    package var google: PlayDeveloperAPI?

    package init(base: RespondOptions, packageName: String, google: PlayDeveloperAPI?) {
        self.base = base
        self.base.window = .play
        self.packageName = packageName
        self.google = google
    }
}

/// The 24-hour answer to every Google Play pending refund review (`orders.reviewrefund`), with
/// the journal, the lock and the exactly-once rules of Apple's answers (`RespondRun`).
///
/// A review arrives only by notification, and a notification is not signed: before an answer
/// is worked out, the review's order is fetched from Google with the app's service account, and
/// the answer is the confirmed order's. play/ is read whole on every run (it holds no more than
/// a server's notifications, voids, orders and purchases); the cost files are read only when an
/// answer is worked out, and only the rows of the accounts answered are kept.
package enum PlayRespondRun {
    package static func execute(_ options: PlayRespondOptions) throws -> RespondOutcome {
        try RespondRun.run(options.base) { journal, outcome, diagnostics in
            try answer(options, journal: &journal, outcome: &outcome, diagnostics: diagnostics)
        }
    }

    private static func answer(
        _ options: PlayRespondOptions, journal: inout ConsumptionJournal, outcome: inout RespondOutcome,
        diagnostics: DiagnosticCollector
    ) throws {
        let base = options.base
        let (now, asOf) = (base.now, base.report.asOf)
        let rejects = RejectLog()
        let layout = try InputLayout(root: base.report.data)
        for refused in layout.refused { try rejects.record(refused) }
        let input = try PlayInput.read(layout.play, rejects: rejects)
        try RespondRun.refuseBeyondLimit(rejects.tally, base)
        outcome.readEveryFile = true
        let reviews = PlayReviews(input, packageName: options.packageName)
        if reviews.otherApps > 0 {
            diagnostics.warn([
                "\(reviews.otherApps) refund reviews in play/ are of another app than --package-name \(options.packageName): not answered"
            ])
        }
        if journal.isEmpty {
            let first = RespondTriage.start(
                of: reviews.requests, begins: min(base.start ?? now, now), asOf: asOf, at: base.clock(), window: .play)
            if !base.dryRun { try journal.begin(first) }
            outcome.began = first
            if first.missed > 0 { base.events(.began(first)) }
        }
        let triage = RespondTriage.of(
            reviews.requests, journaled: journal.latest.mapValues { .init(state: $0.state, body: $0.body) },
            start: journal.start ?? outcome.began, now: now, asOf: asOf, window: .play)
        outcome.signedLater = triage.signedLater
        // Every review still inside its 24 hours is confirmed with Google, an answer sent again too.
        var confirmed: [String: Confirmation] = [:]
        for request in triage.figuresNeeded {
            guard let review = reviews.byToken[request.uuid] else { continue }
            let confirmation = try confirm(review, options: options, input: input)
            if case .unauthorized(let message) = confirmation {
                outcome.unauthorized = message + ". Nothing was sent; the next run confirms and answers again."
                return
            }
            confirmed[request.uuid] = confirmation
        }
        let figures = try PlayReviewAnswers(
            triage.answersNeeded.compactMap { reviews.byToken[$0] }, confirmed: confirmed, input: input, layout: layout,
            options: base.report, rejects: rejects, asOf: asOf)
        try RespondRun.refuseBeyondLimit(rejects.tally, base)
        try RespondRun.send(
            triage.open, answering: answering(options, reviews: reviews, confirmed: confirmed, figures: figures, input: input),
            options: base, journal: &journal, outcome: &outcome)
    }

    /// Google's side of the answers: each review's decision from its confirmed order and its
    /// figure, sent with POST `orders/{orderId}:reviewrefund`.
    private static func answering(
        _ options: PlayRespondOptions, reviews: PlayReviews, confirmed: [String: Confirmation], figures: PlayReviewAnswers,
        input: PlayInput
    ) -> Answering {
        Answering(
            request: { "POST " + (options.google?.baseURL ?? PlayDeveloperAPI.production) + path(options, $0) },
            decide: { request, recorded in
                let deadline = AnswerWindow.play.deadline(of: request.signedAt)
                guard options.base.now < deadline else { return .missed(deadline: deadline) }
                guard let review = reviews.byToken[request.uuid] else { return .none }
                let confirmation = confirmed[request.uuid]
                if case .order(let order) = confirmation, let reason = decided(review, order: order, input: input) {
                    return .skipped(reason: reason)
                }
                // Sent before, its order confirmed then: the same bytes again, never a recomputed answer.
                if let recorded { return .send(body: recorded) }
                switch confirmation {
                case .failed(let reason): return .failed(reason: reason)
                case .unauthorized(let reason): return .failed(reason: reason)
                case .order, nil: break
                }
                switch figures.answers[request.uuid] {
                case .figure(let figure)?:
                    return figure.refusal.map { .skipped(reason: $0) } ?? .send(body: figure.requestBody.compact)
                case .waiting(let reason)?: return .failed(reason: reason)
                case nil: return .none
                }
            },
            send: { request, body, deadline in
                guard let google = options.google else { return .failed(reason: "no sender", status: nil, errorCode: nil) }
                return try google.call("POST", path(options, request), body: body, deadline: deadline)
            },
            unauthorized: { order in
                (options.google?.unauthorized(status: 401, message: nil) ?? "Google refused the service account (401)")
                    + ". Nothing more was sent; the answer to \(order) will be sent again by the next run."
            })
    }

    private static func path(_ options: PlayRespondOptions, _ request: RespondTriage.Request) -> String {
        "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(options.packageName) + "/orders/"
            + PlayDeveloperAPI.component(request.transactionID ?? "") + ":reviewrefund"
    }

    /// Why an answer to `review` is of no use any more, or nil while Google has not decided:
    /// Google refunded or charged back the order after the review came (a void in play/, or
    /// the order as Google has it now), or it was canceled.
    static func decided(_ review: PlayNotification, order: PlayOrder, input: PlayInput) -> String? {
        let void = input.voided.filter { void in
            void.voidedTime >= review.eventTime
                && (void.orderID.map { $0 == order.orderID } ?? (void.purchaseToken == order.purchaseToken))
        }.min { $0.voidedTime < $1.voidedTime }
        if let void { return "Google already refunded the order (\(void.voidedTime))" }
        switch order.state {
        case .refunded?: return "Google already refunded the order" + (order.refundTime.map { " (\($0))" } ?? "")
        case .canceled?: return "the order was canceled"
        default: return nil
        }
    }

    /// What Google says of a review's order.
    enum Confirmation {
        case order(PlayOrder)
        /// No order to answer for now (Google knows none by that id for the app, the call failed).
        case failed(String)
        case unauthorized(String)
    }

    /// The review's order, fetched from Google (`orders:batchGet` with its one id).
    ///
    /// One it knows for this app, of the review's purchase; with no key (a dry run), play/'s order.
    private static func confirm(_ review: PlayNotification, options: PlayRespondOptions, input: PlayInput) throws
        -> Confirmation
    {
        guard let id = review.orderID ?? input.orders.first(where: { $0.purchaseToken == review.purchaseToken })?.orderID
        else {
            return .failed(
                "the review names no order, and play/ holds none of its purchase: run refund-cost fetch orders, then respond")
        }
        guard let google = options.google else {
            if let held = input.orders.first(where: { $0.orderID == id }) { return .order(held) }
            return .failed("play/ holds no order \(id), and a dry run without --service-account asks Google for none")
        }
        let path =
            "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(options.packageName)
            + "/orders:batchGet?orderIds=" + PlayDeveloperAPI.component(id)
        switch try google.call("GET", path, body: [], deadline: Clock.now().adding(.minutes(5))) {
        case .accepted(let response):
            let location = SourceLocation(file: google.baseURL + path, line: 1)
            let orders = response.body.withUnsafeBytes { PlayOrder.decode($0, at: location) }
            guard let order = orders.compactMap({ try? $0.get() }).first(where: { $0.orderID == id }) else {
                return .failed("Google's answer for order \(id) holds no such order: not answered")
            }
            if let token = review.purchaseToken, token != order.purchaseToken {
                return .failed("Google's order \(id) is of another purchase than the review's: not answered")
            }
            return .order(order)
        case .refused(let status, _, let message):
            return .failed(
                "Google knows no order \(id) for \(options.packageName) (HTTP \(status)"
                    + (message.map { ": \($0)" } ?? "") + "): check --package-name; not answered until it is confirmed")
        case .unauthorized(let status, _, let message):
            return .unauthorized(google.unauthorized(status: status, message: message))
        case .failed(let reason, _, _):
            return .failed("the order \(id) could not be confirmed with Google (\(reason)); the next run tries again")
        }
    }
}

/// The pending refund reviews of play/ for one app, as requests: each by its
/// `pendingRefundToken` (what the journal keys it by), its order, and the notification's time.
struct PlayReviews {
    var requests: [RespondTriage.Request] = []
    var byToken: [String: PlayNotification] = [:]
    /// Reviews naming another package: not this app's to answer.
    var otherApps = 0

    init(_ input: PlayInput, packageName: String) {
        for notification in input.notifications where notification.kind == .pendingRefundReview {
            guard let token = notification.pendingRefundToken, !token.isEmpty else { continue }
            if let package = notification.packageName, package != packageName {
                otherApps += 1
                continue
            }
            // One review, kept once: Pub/Sub may deliver it twice with different times.
            if let kept = byToken[token], kept.eventTime <= notification.eventTime { continue }
            byToken[token] = notification
        }
        requests = byToken.values.map { review in
            let order = review.orderID ?? input.orders.first { $0.purchaseToken == review.purchaseToken }?.orderID
            return RespondTriage.Request(uuid: review.pendingRefundToken ?? "", transactionID: order, signedAt: review.eventTime)
        }
        .sorted { ($0.signedAt, $0.uuid) < ($1.signedAt, $1.uuid) }
    }
}
