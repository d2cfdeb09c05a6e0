import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Pipeline
@testable import Support
@testable import TestSupport

/// An option that changes a figure is declared once with the shared options and reaches every
/// client of the pipeline alike: `report`, `respond` and each distributed step.
@Suite("a figure option reaches every command")
struct FigureOptionReachTests {
    typealias F = AppStoreFixture

    /// One consented request for a 500-credit pack of which 200 were drawn (40%), and a
    /// purchase refunded on Oct 11 whose account was served 90 minutes after the refund's notice.
    func data() throws -> String {
        var fixture = F()
        fixture.products += "credits.500,Consumable,,500\n"
        let t0 = F.october
        let bought = t0 + 2 * F.day
        let pack = F.transaction("300", product: "credits.500", type: "Consumable", purchase: bought, signed: bought)
        fixture.notify("ONE_TIME_CHARGE", uuid: "charge", signed: bought, transaction: pack)
        fixture.link("a", "300")
        fixture.consent = "account_id,consented,at\na,true,\(Timestamp(milliseconds: bought - F.day))\n"
        fixture.cost("a", at: bought + F.hour, "0.10", credits: 200)
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "request", signed: bought + F.day, transaction: pack,
            reason: "UNINTENDED_PURCHASE")
        let refundAt = t0 + 10 * F.day
        fixture.notify("ONE_TIME_CHARGE", uuid: "buy", signed: t0, transaction: F.transaction("100", purchase: t0, signed: t0))
        fixture.notify(
            "REFUND", uuid: "refund", signed: refundAt,
            transaction: F.transaction("100", purchase: t0, signed: refundAt, extra: ["revocationDate": refundAt]))
        fixture.link("p", "100")
        fixture.cost("p", at: refundAt + 90 * 60_000, "1.00")
        return try fixture.write()
    }

    @Test func heavyUseChangesRespondsAnswer() throws {
        let data = try data()
        func body(_ extra: [String]) throws -> String {
            let journal = try TestFiles.temporaryDirectory("reach-journal") + "/journal.jsonl"
            let run = try runTool(
                ["respond", "--data", data, "--journal", journal, "--dry-run", "--as-of", "2026-10-04T06:00:00Z"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").first { $0.contains("body ") }.map(String.init) ?? ""
        }
        // 40% used: below the default heavy use (50%) a prorated grant; at or above 30%, a decline.
        #expect(try body([]).contains("\"refundPreference\":\"GRANT_PRORATED\""))
        #expect(try body(["--heavy-use", "30"]).contains("\"refundPreference\":\"DECLINE\""))
    }

    @Test func graceChangesAPartialsTotals() throws {
        let data = try data()
        let root = try TestFiles.temporaryDirectory("reach-partial")
        let args = ["--data", data, "--month", "2026-10", "--out", root + "/out"]
        let snapshot = root + "/ledger.snapshot"
        #expect(try runTool(["snapshot", "--snapshot", snapshot] + args).status == 0)
        func leakedBeyondGrace(_ extra: [String]) throws -> String {
            let path = root + "/p\(extra.count).partial"
            let run = try runTool(["partial", "--snapshot", snapshot, "--file", "costs.csv", "--partial", path] + args + extra)
            #expect(run.status == 0, "\(run.stderr)")
            let content = try PackedFile.read(
                path, kind: CostPartial.kind, version: CostPartial.version, secret: try StepSecret(testStepSecret))
            let partial = try CompactCoder.decode(CostPartial.self, from: content)
            return "\(partial.reading.totals.beyondGraceByProduct)"
        }
        // Served 90 minutes after the refund's notice: beyond one hour's grace, within two hours'.
        let oneHour = try leakedBeyondGrace([])
        let twoHours = try leakedBeyondGrace(["--grace", "2h"])
        #expect(oneHour != twoHours, "\(oneHour) vs \(twoHours)")
    }
}
