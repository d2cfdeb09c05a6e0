import Ingest
import Support

/// What the journal of `respond` says about one request: its last state, when it was
/// answered, and whether that was inside Apple's 12 hours from the request's signing.
package struct ConsumptionAnswered: Sendable, Hashable {
    /// The last event's state (`sent`, `refused`, `failed`, `skipped`, `missed`, `sending`), or `none`.
    package var state: String
    /// When the answer went out (`sent`), or when it was refused; nil otherwise.
    package var answeredAt: Timestamp?
    package var inTime: Bool
    package var appleErrorCode: Int?
    /// The `refundPreference` of the answer Apple took (nil when none was sent).
    package var sentPreference: RefundPreference?

    /// The journal's word on every request of `figures`.
    static func attach(_ journal: ConsumptionJournal, to requests: inout [ConsumptionFigure]) {
        for index in requests.indices {
            let uuid = requests[index].notificationUUID
            let deadline = requests[index].respondBy
            guard let latest = journal.latest[uuid] else {
                requests[index].answered = ConsumptionAnswered(
                    state: "none", answeredAt: nil, inTime: false, appleErrorCode: nil, sentPreference: nil)
                continue
            }
            let sent = journal.firstSent[uuid]
            let answeredAt = sent?.at ?? (latest.state == .refused ? latest.at : nil)
            requests[index].answered = ConsumptionAnswered(
                state: latest.state.rawValue, answeredAt: answeredAt, inTime: sent.map { $0.at <= deadline } ?? false,
                appleErrorCode: latest.appleErrorCode,
                sentPreference: sent?.sentField("refundPreference").flatMap(RefundPreference.init(rawValue:)))
        }
    }
}

extension ReportFigures {
    /// Adds the journal's word to every consumption request (`report --journal`), and what
    /// answering earned.
    package mutating func attach(journal: ConsumptionJournal) throws {
        ConsumptionAnswered.attach(journal, to: &consumption)
        journalRead = true
        answering = try AnsweringFigure(consumption)
        counts = FigureCounts(self)
    }
}
