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

    /// How long a run spends confirming orders, whatever Google does: a run that waits longer
    /// would look stuck to the next (docs/respond.md); what is not confirmed by then waits for it.
    static let confirmingBudget = TimeSpan.minutes(5)

    private static func answer(
        _ options: PlayRespondOptions, journal: inout ConsumptionJournal, outcome: inout RespondOutcome,
        diagnostics: DiagnosticCollector
    ) throws {
        let base = options.base
        let (now, asOf) = (base.now, base.report.asOf)
        let rejects = RejectLog()
        let layout = try InputLayout(root: base.report.data)
        guard FileSystem.kind(base.report.data + "/play/notifications") == .directory else {
            throw PlayFolderMissing(data: base.report.data)
        }
        for refused in layout.refused { try rejects.record(refused) }
        let input = try PlayInput.read(layout.play, rejects: rejects)
        try RespondRun.refuseBeyondLimit(rejects.tally, base)
        outcome.readEveryFile = true
        let reviews = PlayReviews(input, packageName: options.packageName, journaled: journal.latest)
        if !reviews.otherApps.isEmpty {
            // A data folder is one app's: reviews of another mean --package-name or --data is wrong.
            let named = reviews.otherApps.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
            outcome.attention.append("refund reviews of another app in play/")
            diagnostics.warn([
                "play/ holds refund reviews of another app than --package-name \(options.packageName): "
                    + named.joined(separator: ", ") + "; they are not answered: check --package-name and --data"
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
        let budget = Clock.now().adding(confirmingBudget)
        for request in triage.figuresNeeded {
            guard let review = reviews.byToken[request.uuid] else { continue }
            if let problem = reviews.problems[request.uuid] {
                confirmed[request.uuid] = .failed(problem)
                continue
            }
            let by = min(budget, AnswerWindow.play.deadline(of: request.signedAt))
            let confirmation = try confirm(
                review, orderID: request.transactionID ?? "", options: options, input: input, by: by)
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
                var order: PlayOrder?
                if case .order(let found) = confirmation { order = found }
                // Google decided already, by play/'s voids or the order as Google has it: no answer
                // goes, a first one or one recorded to be sent again.
                if let id = request.transactionID,
                    let reason = decided(review, orderID: id, confirmed: order, input: input)
                {
                    return .skipped(reason: reason)
                }
                // Sent before, to the order the journal names: the same bytes again, never a recomputed answer.
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
                return verdict(try google.call("POST", path(options, request), body: body, deadline: deadline), api: google)
            },
            unauthorized: { order in
                (options.google?.unauthorized(status: 401, message: nil) ?? "Google refused the service account (401)")
                    + ". Nothing more was sent; the answer to \(order) will be sent again by the next run."
            })
    }

    /// Google answers a review it took with 200 and a JSON object (`{}`): any other success (a
    /// proxy's login page, an empty 204) is no answer of Google's, and the review is sent again.
    static func verdict(_ outcome: APIOutcome, api: PlayDeveloperAPI) -> APIOutcome {
        guard case .accepted(let response) = outcome else { return outcome }
        let isObject: Bool = response.body.withUnsafeBytes { raw in
            var cursor = JSONCursor(raw)
            return (try? cursor.members { cursor, _ in try cursor.skip() }).map { (try? cursor.finish()) != nil } ?? false
        }
        guard response.status == 200, isObject else {
            return .failed(
                reason: "HTTP \(response.status) that is not Google's answer: " + ResponseVerdict.quoted(response.body),
                status: response.status, errorCode: nil)
        }
        return outcome
    }

    private static func path(_ options: PlayRespondOptions, _ request: RespondTriage.Request) -> String {
        "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(options.packageName) + "/orders/"
            + PlayDeveloperAPI.component(request.transactionID ?? "") + ":reviewrefund"
    }

    /// Why an answer to `review` of order `orderID` is of no use any more, or nil while Google
    /// has not decided: Google refunded or charged back the order at or after the review's time
    /// (a void in play/), or the order as Google returned it is refunded or canceled.
    static func decided(_ review: PlayNotification, orderID: String, confirmed: PlayOrder?, input: PlayInput) -> String? {
        let token = confirmed?.purchaseToken ?? review.purchaseToken
        let void = input.voided.filter { void in
            void.voidedTime >= review.eventTime && (void.orderID.map { $0 == orderID } ?? (void.purchaseToken == token))
        }.min { $0.voidedTime < $1.voidedTime }
        if let void { return "Google already refunded the order (\(void.voidedTime))" }
        switch confirmed?.state {
        case .refunded?: return "Google already refunded the order" + (confirmed?.refundTime.map { " (\($0))" } ?? "")
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

    /// The review's order, fetched from Google (`orders:batchGet` with its one id) by `by`.
    ///
    /// One it knows for this app, of the review's purchase; with no key (a dry run), play/'s
    /// order, held to the same checks.
    private static func confirm(
        _ review: PlayNotification, orderID id: String, options: PlayRespondOptions, input: PlayInput, by: Timestamp
    ) throws -> Confirmation {
        func checked(_ order: PlayOrder, _ whose: String) -> Confirmation {
            if let token = review.purchaseToken, token != order.purchaseToken {
                return .failed(
                    "\(whose) order \(id) is of another purchase than the review's (purchaseToken): not answered; "
                        + "check the review's notification in play/notifications/")
            }
            return .order(order)
        }
        guard let google = options.google else {
            if let held = input.orders.first(where: { $0.orderID == id }) { return checked(held, "play/'s") }
            return .failed("play/ holds no order \(id), and a dry run asks Google for none")
        }
        guard Clock.now() < by else {
            return .failed("the order \(id) was not confirmed with Google in this run's time for it; the next run tries again")
        }
        let path =
            "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(options.packageName)
            + "/orders:batchGet?orderIds=" + PlayDeveloperAPI.component(id)
        switch try google.call("GET", path, body: [], deadline: by) {
        case .accepted(let response):
            let location = SourceLocation(file: google.baseURL + path, line: 1)
            let orders = response.body.withUnsafeBytes { PlayOrder.decode($0, at: location) }
            let found = orders.compactMap { try? $0.get() }.filter { $0.orderID == id }
            guard found.count == 1, let order = found.first else {
                return .failed(
                    "Google's answer for order \(id) holds \(found.isEmpty ? "no" : "more than one") such order: not answered")
            }
            return checked(order, "Google's")
        case .refused(let status, _, let message):
            return .failed(
                "Google knows no order \(id) for \(options.packageName) (HTTP \(status)"
                    + (message.map { ": \($0)" } ?? "")
                    + "): check --package-name, and the order id in the review's notification; not answered until it is confirmed"
            )
        case .unauthorized(let status, _, let message):
            return .unauthorized(google.unauthorized(status: status, message: message))
        case .failed(let reason, _, _):
            return .failed("the order \(id) could not be confirmed with Google (\(reason)); the next run tries again")
        }
    }
}

/// `respond --store play` on a data folder with no `play/notifications/`: nothing could ever be
/// answered, which is a mistake in `--data`, not a quiet day.
struct PlayFolderMissing: DiagnosticError {
    var data: String

    var diagnostic: Diagnostic {
        Diagnostic(
            "\(data)/play/notifications/ does not exist: respond --store play answers the refund reviews a server keeps "
                + "there (docs/inputs.md, play/); check --data, or make the folder where the server writes Google's notifications"
        )
    }
}

/// The pending refund reviews of play/ for one app, as requests: each by its
/// `pendingRefundToken` (what the journal keys it by), its order, and the notification's time.
///
/// A review's order is the one the journal answered it for once it has journaled it (a later
/// notification file never turns an answer to another order); else the one its notifications
/// name, or the one order play/ holds of its purchase. Anything else is a problem, named, and
/// the review is not answered.
struct PlayReviews {
    /// Longest id Google gives that an answer names: a longer one is not Google's.
    static let longestToken = 4_096
    static let longestOrderID = 256

    var requests: [RespondTriage.Request] = []
    var byToken: [String: PlayNotification] = [:]
    /// Why a review cannot be answered as play/ holds it, by token.
    var problems: [String: String] = [:]
    /// The packages of reviews naming another app than the run's: not this app's to answer.
    var otherApps: [String: Int] = [:]

    init(_ input: PlayInput, packageName: String, journaled: [String: JournalEvent]) {
        var copies: [String: [PlayNotification]] = [:]
        for notification in input.notifications where notification.kind == .pendingRefundReview {
            guard let token = notification.pendingRefundToken, !token.isEmpty else { continue }
            if let package = notification.packageName, package != packageName {
                otherApps[package, default: 0] += 1
                continue
            }
            copies[token, default: []].append(notification)
        }
        for (token, reviews) in copies {
            // The earliest copy: Pub/Sub may deliver one twice, and Google's 24 hours run from the first.
            let review = reviews.min { $0.eventTime < $1.eventTime } ?? reviews[0]
            byToken[token] = review
            var order = journaled[token].map(\.transactionID).flatMap { $0.isEmpty ? nil : $0 }
            if order == nil {
                let named = Set(reviews.compactMap { Self.order(of: $0, in: input).id })
                if named.count > 1 {
                    problems[token] =
                        "play/ holds copies of this review naming orders \(named.sorted().joined(separator: " and ")): "
                        + "not answered until one remains"
                } else {
                    order = named.first
                    if order == nil { problems[token] = Self.order(of: review, in: input).problem }
                }
            }
            if token.utf8.count > Self.longestToken || token.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                problems[token] =
                    "its pendingRefundToken is not one Google gives (too long, or with control characters): not answered"
            }
            if let id = order, id.utf8.count > Self.longestOrderID || id.unicodeScalars.contains(where: { $0.value < 0x20 }) {
                problems[token] = "its order id is not one Google gives (too long, or with control characters): not answered"
                order = nil
            }
            requests.append(RespondTriage.Request(uuid: token, transactionID: order, signedAt: review.eventTime))
        }
        requests.sort { ($0.signedAt, $0.uuid) < ($1.signedAt, $1.uuid) }
    }

    /// The order a review names, or the one order play/ holds of its purchase; else why there
    /// is none: it names none and play/ holds none, or several (a subscription's renewals share
    /// its token, and which one is under review is not known).
    private static func order(of review: PlayNotification, in input: PlayInput) -> (id: String?, problem: String?) {
        if let id = review.orderID { return (id, nil) }
        let held = Set(input.orders.filter { $0.purchaseToken == review.purchaseToken }.map(\.orderID))
        if held.count == 1 { return (held.first, nil) }
        return (
            nil,
            held.isEmpty
                ? "the review names no order, and play/ holds none of its purchase: run refund-cost fetch orders, then respond"
                : "the review names no order, and play/ holds \(held.count) orders of its purchase (its renewals): "
                    + "not answered, since which one is under review is not known"
        )
    }
}
