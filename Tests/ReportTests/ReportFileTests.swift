import Testing

@testable import Attribution
@testable import Ingest
@testable import Report
@testable import Support
@testable import TestSupport

/// Every data file of a report, written from the figures of one family refund (and one refunded
/// subscription, and one refund request), read back by column name: each value worked out by
/// hand (FigureTests has the rows and their classes; money with six decimals, times in UTC).
@Suite("Report files, by hand")
struct ReportFileTests {
    typealias F = AppStoreFixture

    /// The files of `fixture`'s October, written into a folder of their own.
    func written(_ fixture: AppStoreFixture, journal: [String: JournalEntry]? = nil, label: String = #function) throws
        -> String
    {
        let figures = try octoberFigures(fixture, journal: journal, label: label)
        let folder = try TestFiles.temporaryDirectory(label + "-files")
        for output in ReportFiles.outputs {
            try output.write(
                ReportFiles.Inputs(
                    figures: figures, conservation: try Conservation(figures: figures, accepted: CostTotals()),
                    context: RunContext(inputs: [], signatures: SignatureStatement()), folder: folder))
        }
        return folder
    }

    @Test func summaryAndTotals() throws {
        let folder = try written(F.familyMonth)
        let rows = try csvRows(folder + "/summary.csv")
        #expect(rows.map { $0["product_id"] } == ["", "pro.lifetime"])
        let lifetime = rows[1]
        #expect(
            lifetime["period_start"] == "2026-10-01" && lifetime["period_end"] == "2026-11-01" && lifetime["currency"] == "USD")
        #expect(lifetime["as_of"] == "2026-11-01T00:00:00.000Z" && lifetime["paid_transactions"] == "1")
        // 2.00 paid + 3.00 family_shared + 5.50 after_refund.
        #expect(lifetime["cost_total"] == "10.500000" && lifetime["cost_paid"] == "2.000000")
        #expect(lifetime["cost_family_shared"] == "3.000000" && lifetime["cost_after_refund"] == "5.500000")
        #expect(lifetime["leaked_cost"] == "5.500000" && lifetime["leaked_cost_beyond_grace"] == "4.500000")
        #expect(lifetime["leaked_accounts"] == "2" && lifetime["refunds"] == "1" && lifetime["family_refunds"] == "2")
        #expect(lifetime["refunded_amount"] == "9.990000" && lifetime["refund_sunk_cost"] == "10.500000")
        #expect(rows[0]["cost_unlinked"] == "1.000000" && rows[0]["cost_total"] == "1.000000")
        let totals = try #require(try csvRows(folder + "/totals.csv").first)
        #expect(totals["cost_total"] == "11.500000" && totals["refunds"] == "1" && totals["product_id"] == nil)
    }

    @Test func trendAndCostByDay() throws {
        let folder = try written(F.familyMonth)
        let trend = Set(
            try csvRows(folder + "/trend.csv").map { "\($0["month"] ?? ""),\($0["class"] ?? ""),\($0["cost"] ?? "")" })
        #expect(trend.contains("2026-09,unlinked,0.250000") && trend.contains("2026-10,after_refund,5.500000"))
        #expect(trend.contains("2026-10,paid,2.000000") && trend.contains("2026-10,family_shared,3.000000"))
        let days = try csvRows(folder + "/cost_by_day.csv").map {
            [$0["day"], $0["category"], $0["class"], $0["currency"], $0["rows"], $0["cost"]].map { $0 ?? "" }.joined(
                separator: ",")
        }
        #expect(
            days == [
                "2026-10-06,compute,paid,USD,1,2.000000", "2026-10-06,compute,family_shared,USD,1,3.000000",
                "2026-10-06,compute,unlinked,USD,1,1.000000", "2026-10-11,compute,after_refund,USD,2,5.000000",
                "2026-10-13,compute,after_refund,USD,1,0.500000",
            ])
    }

    @Test func refundsAndLeaks() throws {
        let folder = try written(F.familyMonth)
        let refund = try #require(try csvRows(folder + "/refunds.csv").first)
        #expect(refund["transaction_id"] == "100" && refund["account_id"] == "acct-p")
        #expect(refund["revocation_date"] == "2026-10-11T00:00:00.000Z" && refund["revocation_kind"] == "refund_full")
        #expect(refund["family_members"] == "2" && refund["family_link_method"] == "revocation_match")
        #expect(refund["cost_purchaser"] == "2.000000" && refund["cost_family"] == "3.000000")
        #expect(refund["cost_after_revocation"] == "5.500000" && refund["sunk_cost"] == "10.500000")
        #expect(refund["refunded_amount_converted"] == "9.990000" && refund["currency"] == "USD")

        let leaks = Dictionary(uniqueKeysWithValues: try csvRows(folder + "/leaks.csv").map { ($0["account_id"] ?? "", $0) })
        let purchaser = try #require(leaks["acct-p"])
        #expect(purchaser["transaction_id"] == "100" && purchaser["end_kind"] == "refund_full")
        // The REFUND was received 2 s after the revocation it dates.
        #expect(purchaser["access_end"] == "2026-10-11T00:00:00.000Z" && purchaser["notified_at"] == "2026-10-11T00:00:02.000Z")
        #expect(purchaser["cost_before_notice"] == "0.000000" && purchaser["cost_within_grace"] == "1.000000")
        #expect(purchaser["cost_beyond_grace"] == "4.000000")
        #expect(
            purchaser["first_cost_at"] == "2026-10-11T00:30:00.000Z" && purchaser["last_cost_at"] == "2026-10-11T03:00:00.000Z")
        let member = try #require(leaks["acct-m1"])
        #expect(member["transaction_id"] == "201" && member["ownership"] == "family_shared")
        // Revoked 3 minutes after the purchase's refund, the REVOKE received a minute later.
        #expect(member["access_end"] == "2026-10-11T00:03:00.000Z" && member["notified_at"] == "2026-10-11T00:04:00.000Z")
        #expect(member["end_kind"] == "family_refund" && member["cost_beyond_grace"] == "0.500000")
    }

    @Test func familyLinksAndSpend() throws {
        let folder = try written(F.familyMonth)
        let links = try csvRows(folder + "/family_links.csv")
        #expect(links.map { $0["member_transaction_id"] } == ["201", "202"])
        #expect(links.allSatisfy { $0["purchaser_transaction_id"] == "100" && $0["link_method"] == "revocation_match" })
        #expect(links.allSatisfy { $0["confidence"] == "high" })
        let spend = try csvRows(folder + "/family_spend.csv").map {
            [$0["role"], $0["account_id"], $0["cost_entitled"], $0["cost_after_end"], $0["cost_total"]].map { $0 ?? "" }
                .joined(separator: ",")
        }
        // acct-m2 served nothing: a person without cost in the window has no row.
        #expect(spend == ["purchaser,acct-p,2.000000,5.000000,7.000000", "member,acct-m1,3.000000,0.500000,3.500000"])
    }

    @Test func subscriptionLoss() throws {
        let folder = try written(F.refundedSubscription)
        let loss = try #require(try csvRows(folder + "/subscription_loss.csv").first)
        #expect(loss["account_id"] == "acct-s" && loss["product_id"] == "pro.monthly")
        #expect(loss["access_end"] == "2026-10-05T00:00:00.000Z" && loss["leaked_periods"] == "1")
        #expect(loss["leaked_cost"] == "3.000000" && loss["cost_per_period"] == "3.000000")
        #expect(loss["still_leaking"] == "true" && loss["run_rate_30d"] == "3.000000" && loss["billing_grace_cost"] == "0.000000")
    }

    /// A refund request for 100 signed October 9 at 00:00, with the customer's consent; with the
    /// journal, its answer (GRANT_FULL, sent an hour later) and Apple's refund two days after.
    @Test func consumptionRequestsAndTheirBodies() throws {
        var fixture = F.familyMonth
        let signed = F.october + 8 * F.day
        fixture.notify(
            "CONSUMPTION_REQUEST", uuid: "request", signed: signed,
            transaction: F.transaction("100", purchase: F.october, signed: signed), reason: "UNINTENDED_PURCHASE")
        fixture.consent = "account_id,consented,at\nacct-p,true,2026-01-01T00:00:00Z\n"
        let plain = try written(fixture, label: "plain")
        let request = try #require(try csvRows(plain + "/consumption_requests.csv").first)
        #expect(request["notification_uuid"] == "request" && request["transaction_id"] == "100")
        #expect(request["received_at"] == "2026-10-09T00:00:00.000Z" && request["respond_by"] == "2026-10-09T12:00:00.000Z")
        #expect(request["customer_consented"] == "true" && request["outcome"] == "granted")
        // Granted when Apple signed the REFUND, a second after the revocation it dates.
        #expect(request["outcome_at"] == "2026-10-11T00:00:01.000Z" && request["past_respond_by"] == "true")
        #expect(request["answer_state"] == nil, "the journal's columns only with a journal")
        let body = try TestFiles.read(plain + "/consumption_responses.jsonl")
        #expect(body.hasPrefix("{\"transactionId\":\"100\",\"body\":{") && body.contains("\"customerConsented\":true"))

        let entry = JournalEntry(
            state: .sent, lastAt: Timestamp(milliseconds: signed + F.hour), appleErrorCode: nil,
            sentAt: Timestamp(milliseconds: signed + F.hour), sentPreference: .grantFull)
        let journaled = try #require(
            try csvRows(try written(fixture, journal: ["request": entry]) + "/consumption_requests.csv").first)
        #expect(journaled["answer_state"] == "sent" && journaled["answered_at"] == "2026-10-09T01:00:00.000Z")
        #expect(journaled["answered_in_time"] == "true" && journaled["sent_preference"] == "GRANT_FULL")
        #expect(journaled["decided_as_preferred"] == "true" && journaled["price"] == "9.990000")
        #expect(journaled["price_kept"] == "" && journaled["price_refunded"] == "9.990000")
    }

    @Test func withoutABillTheAllocationIsItsHeader() throws {
        let folder = try written(F.familyMonth)
        #expect(try TestFiles.read(folder + "/allocation.csv") == AllocationFile.file.header.joined(separator: ",") + "\n")
    }
}
