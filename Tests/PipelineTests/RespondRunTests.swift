import Foundation
import Synchronization
import Testing

@testable import AppStoreAPI
@testable import Attribution
@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// respond's rules in process: the triage of requests, journal and time into what each needs,
/// and a run over a folder of its own with Apple played by a recorder and the clock stopped, so
/// every rule is seen without a subprocess or a socket.
@Suite("respond in process")
struct RespondRunTests {
    typealias F = AppStoreFixture
    typealias Request = RespondTriage.Request
    static let hour = F.hour
    static let day = F.day
    /// Requests are signed from Oct 4 12:00 on; the runs look at them as of 13:00.
    static let requestSigned = F.october + 3 * day + 12 * hour
    static let now = Timestamp(milliseconds: requestSigned + hour)

    func request(_ number: Int, signed: Int64 = requestSigned) -> Request {
        Request(uuid: "request-\(number)", transactionID: "20000000000001\(number)", signedAt: Timestamp(milliseconds: signed))
    }

    // MARK: - The triage

    @Test func theTriageOfEveryKindOfRequest() {
        let now = Self.now
        let twelve = 12 * Self.hour
        let requests = [
            request(1),  // open, never journaled: its answer is worked out
            request(2),  // sent: answered for good
            request(3),  // failed with a body: sent again with it (its figure says whether Apple decided)
            request(4, signed: Self.requestSigned - twelve - Self.hour),  // its 12 hours ended: missed now
            request(5, signed: now.milliseconds + Self.hour),  // signed after the time read up to
            request(6, signed: Self.requestSigned - 2 * Self.day),  // ended before the journal began
            request(7),  // skipped: final
        ]
        let journaled: [String: RespondTriage.Journaled] = [
            "request-2": .init(state: .sent, body: "{}"), "request-3": .init(state: .failed, body: "{\"a\":1}"),
            "request-4": .init(state: .sending, body: "{\"b\":2}"), "request-7": .init(state: .skipped, body: nil),
        ]
        let start = JournalStart(begins: Timestamp(milliseconds: Self.requestSigned - Self.day), at: now)
        let triage = RespondTriage.of(requests, journaled: journaled, start: start, now: now, asOf: now)
        #expect(triage.open.map(\.uuid) == ["request-1", "request-3", "request-4"])
        #expect(triage.figuresNeeded.map(\.uuid) == ["request-1", "request-3"])
        #expect(triage.answersNeeded == ["request-1"])
        #expect(triage.kept == ["request-1", "request-3", "request-4", "request-5"])
        #expect(triage.signedLater == 1)
    }

    @Test func aNewJournalCountsWhatEndedBeforeIt() {
        let begins = Timestamp(milliseconds: Self.requestSigned + 13 * Self.hour)
        let requests = [
            request(1, signed: Self.requestSigned - Self.day),  // ended at Oct 4 00:00: before
            request(2, signed: Self.requestSigned + Self.hour),  // ends Oct 5 01:00, exactly when the journal begins: before
            request(3, signed: Self.requestSigned + 2 * Self.hour),  // ends after: the journal's to answer or miss
        ]
        let first = RespondTriage.start(of: requests, begins: begins, asOf: begins, at: begins)
        #expect(first.missed == 2)
        #expect(first.oldest == Timestamp(milliseconds: Self.requestSigned - Self.day))
        #expect(first.newest == Timestamp(milliseconds: Self.requestSigned + Self.hour))
    }

    @Test func aDecisionWithoutAFigure() {
        let open = request(1)
        // Past its 12 hours: missed, whatever the journal holds.
        let late = Timestamp(milliseconds: Self.requestSigned + 12 * Self.hour)
        #expect(
            RespondDecision.of(open, now: late, recordedBody: "{}", figure: nil, type: nil)
                == .missed(deadline: Timestamp(milliseconds: Self.requestSigned + 12 * Self.hour)))
        // A recorded body goes again as it is; with no figure and no body, nothing of this run's.
        #expect(
            RespondDecision.of(open, now: Self.now, recordedBody: "{\"x\":1}", figure: nil, type: nil) == .send(body: "{\"x\":1}")
        )
        #expect(RespondDecision.of(open, now: Self.now, recordedBody: nil, figure: nil, type: nil) == .none)
    }

    // MARK: - A run, Apple played by a recorder

    /// Apple's answers in order, and every call it got.
    final class RecordedApple: ConsumptionSender, Sendable {
        let answers: Mutex<[APIOutcome]>
        let calls = Mutex<[(transaction: String, body: String)]>([])

        init(_ answers: [APIOutcome]) { self.answers = Mutex(answers) }

        func sendConsumption(transactionID: String, body: [UInt8], deadline: Timestamp) throws -> APIOutcome {
            calls.withLock { $0.append((transactionID, String(decoding: body, as: UTF8.self))) }
            return answers.withLock {
                $0.isEmpty ? .accepted(HTTPResponse(status: 202, headers: [:], body: [])) : $0.removeFirst()
            }
        }
    }

    /// What a run told its caller, event by event.
    final class Heard: Sendable {
        let events = Mutex<[RespondEvent]>([])
        var all: [RespondEvent] { events.withLock { $0 } }
    }

    /// Three consented requests for 500-credit packs, 200 credits of each drawn before its request.
    func data() throws -> String {
        var fixture = F()
        fixture.products += "credits.500,Consumable,,500\n"
        let bought = Self.requestSigned - 2 * Self.day
        var consent = "account_id,consented,at\n"
        for number in 1...3 {
            let id = "20000000000001\(number)"
            let transaction = F.transaction(id, product: "credits.500", type: "Consumable", purchase: bought, signed: bought)
            fixture.notify("ONE_TIME_CHARGE", uuid: "charge-\(number)", signed: bought, transaction: transaction)
            fixture.link("a\(number)", id)
            consent += "a\(number),true,\(Timestamp(milliseconds: bought - Self.day))\n"
            fixture.cost("a\(number)", at: bought + Self.hour, "0.10", credits: 200)
            fixture.notify(
                "CONSUMPTION_REQUEST", uuid: "request-\(number)", signed: Self.requestSigned + Int64(number) * 60_000,
                transaction: transaction, reason: "UNINTENDED_PURCHASE")
        }
        fixture.consent = consent
        return try fixture.write()
    }

    func options(_ data: String, journal: String, sender: RecordedApple, heard: Heard) throws -> RespondOptions {
        let window = ReportWindow(start: .earliestAccepted, end: Self.now.adding(TimeSpan(milliseconds: 1)), label: "respond")
        var report = try reportOptions(data: data, out: "", window: window)
        report.verifiedFilesRecord = nil
        var options = RespondOptions(
            report: report, now: Self.now, journal: journal, sender: sender, baseURL: "http://127.0.0.1:1")
        options.clock = { Timestamp(milliseconds: RespondRunTests.now.milliseconds + 5_000) }
        options.events = { event in heard.events.withLock { $0.append(event) } }
        return options
    }

    @Test func aRefusalAFailureAndTheirNextRun() throws {
        let data = try data()
        let journal = try TestFiles.temporaryDirectory("respond-in-process") + "/journal.jsonl"
        let apple = RecordedApple([
            .accepted(HTTPResponse(status: 202, headers: [:], body: [])),
            .refused(status: 400, errorCode: 4_000_035, message: "consent"),
            .failed(reason: "HTTP 503", status: 503, errorCode: nil),
        ])
        let heard = Heard()
        let first = try RespondRun.execute(try options(data, journal: journal, sender: apple, heard: heard))
        #expect((first.sent, first.refused, first.failed, first.open) == (1, 1, 1, 3))
        #expect(first.status == 1, "a refusal and a failure need a person")
        let firstCalls = apple.calls.withLock { $0 }
        #expect(firstCalls.map(\.transaction) == ["200000000000011", "200000000000012", "200000000000013"])
        // 200 of 500 credits drawn before each request: 40% (40,000 milliunits), a partial use
        // of an unintended purchase below heavy use (50%), so a prorated grant (docs/domain.md rule 11).
        for call in firstCalls {
            #expect(call.body.contains("\"consumptionPercentage\":40000"), "\(call.body)")
            #expect(call.body.contains("\"refundPreference\":\"GRANT_PRORATED\""), "\(call.body)")
        }
        let journaledStates = heard.all.compactMap { event -> String? in
            if case .journaled(let journaled, _) = event { return journaled.state.rawValue + " " + journaled.notificationUUID }
            return nil
        }
        #expect(journaledStates == ["sent request-1", "refused request-2", "failed request-3"])

        // The next run sends only the failed one, with the body it recorded; the refusal was
        // reported by the first run's summary, so only the failure still needs a person.
        let second = try RespondRun.execute(try options(data, journal: journal, sender: apple, heard: Heard()))
        let secondCalls = Array(apple.calls.withLock { $0 }.dropFirst(3))
        #expect(secondCalls.map(\.transaction) == ["200000000000013"])
        #expect(secondCalls.first?.body == firstCalls.last?.body)
        #expect((second.sent, second.refused, second.failed) == (1, 0, 0))
        #expect(second.status == 0)
        // Every event of the journal carries the stopped clock's time.
        let lines = try TestFiles.read(journal).split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains("\"at\":\"2026-10-04T13:00:05.000Z\"") }, "\(lines)")
    }

    @Test func aDryRunSendsNothingAndSaysWhatItWould() throws {
        let data = try data()
        let journal = try TestFiles.temporaryDirectory("respond-dry") + "/journal.jsonl"
        let apple = RecordedApple([])
        let heard = Heard()
        var options = try options(data, journal: journal, sender: apple, heard: heard)
        options.dryRun = true
        options.sender = nil
        let outcome = try RespondRun.execute(options)
        #expect(outcome.sent == 0 && apple.calls.withLock { $0.isEmpty })
        let would = heard.all.compactMap { event -> String? in
            if case .wouldSend(let request, let uuid, _, _) = event { return uuid + " " + request }
            return nil
        }
        #expect(
            would == [
                "request-1 PUT http://127.0.0.1:1/inApps/v2/transactions/consumption/200000000000011",
                "request-2 PUT http://127.0.0.1:1/inApps/v2/transactions/consumption/200000000000012",
                "request-3 PUT http://127.0.0.1:1/inApps/v2/transactions/consumption/200000000000013",
            ])
        #expect(!FileManager.default.fileExists(atPath: journal))
    }
}
