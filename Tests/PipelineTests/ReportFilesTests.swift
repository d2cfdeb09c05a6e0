import Testing

@testable import Attribution
@testable import Pipeline
@testable import Report
@testable import Support
@testable import TestSupport

/// totals.csv, trend.csv, family_spend.csv, refund rates and converted refunds, checked by hand
/// on the family refund month of `ReportScenarioTests` and summed over the sample.
@Suite("Totals, trend, family spend and refund rates")
struct ReportFilesTests {
    typealias F = AppStoreFixture
    let t0 = AppStoreFixture.october
    let h = AppStoreFixture.hour
    let d = AppStoreFixture.day

    /// P's purchase 100 is shared with M1 and M2; M1 keeps using it after P's refund (see
    /// `ReportScenarioTests.familyRefundMonth`).
    @Test func familySpendHasThePurchaserAndEachMemberWithCost() throws {
        let result = try runReport(try ReportScenarioTests().familyRefundMonth().write())
        let rows = try result.rows("family_spend.csv")
        // P: 4.00 paid. M1: 2.00 while entitled, then 0.50 + 0.25 + 1.00 + 3.00 after the refund.
        // M2's only row (0.30) came before its transaction was issued: premature, neither.
        #expect(
            rows == [
                [
                    "purchaser_transaction_id": "100", "product_id": "pro.lifetime", "role": "purchaser", "account_id": "p",
                    "transaction_id": "100", "link_method": "", "cost_entitled": "4.000000", "cost_after_end": "0.000000",
                    "cost_total": "4.000000", "currency": "USD", "store": "app_store",
                ],
                [
                    "purchaser_transaction_id": "100", "product_id": "pro.lifetime", "role": "member", "account_id": "m1",
                    "transaction_id": "201", "link_method": "revocation_match", "cost_entitled": "2.000000",
                    "cost_after_end": "4.750000", "cost_total": "6.750000", "currency": "USD",
                    "store": "app_store",
                ],
            ])
    }

    /// A member whose purchaser is not in the data is listed under an empty purchaser id.
    @Test func aMemberLinkedToNoPurchaseIsGroupedUnderAnEmptyPurchaser() throws {
        var fixture = F()
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "share", signed: t0 + h,
            transaction: F.transaction("500", ownership: "FAMILY_SHARED", purchase: t0 + h, signed: t0 + h))
        fixture.link("lonely", "500")
        fixture.cost("lonely", at: t0 + 3 * d, "1.25")
        let rows = try runReport(try fixture.write()).rows("family_spend.csv")
        #expect(rows.count == 1)
        #expect(rows.first?["purchaser_transaction_id"] == "")
        #expect(rows.first?["role"] == "member")
        #expect(rows.first?["link_method"] == "none")
        #expect(rows.first?["cost_entitled"] == "1.250000")
    }

    /// Purchases of the window: 100 (Oct 1, refunded) and 300 (Oct 25).
    @Test func paidTransactionsAndRefundRate() throws {
        let result = try runReport(try ReportScenarioTests().familyRefundMonth().write())
        #expect(try result.summary("pro.lifetime")["paid_transactions"] == "1")
        #expect(try result.summary("pro.lifetime")["refund_rate"] == "1.0000")
        #expect(try result.summary("pro.yearly")["paid_transactions"] == "1")
        #expect(try result.summary("pro.yearly")["refund_rate"] == "0.0000")
        #expect(try result.summary("")["refund_rate"] == "")
        #expect(try result.totals()["paid_transactions"] == "2")
        #expect(try result.totals()["refund_rate"] == "0.5000")
        #expect(try result.totals()["product_id"] == nil)
    }

    /// A refund in EUR sits beside one in USD: refunded_amount keeps each currency,
    /// refunded_amount_converted is USD at the revocation date, and the summary adds those.
    @Test func refundedAmountsAreConvertedForSums() throws {
        var fixture = ReportScenarioTests().familyRefundMonth()
        fixture.rates = "date,currency,rate\n2026-10-01,EUR,1.10\n2026-10-20,EUR,1.20\n"
        fixture.notify(
            "ONE_TIME_CHARGE", uuid: "eur-buy", signed: t0 + 2 * d,
            transaction: F.transaction(
                "400", product: "pro.eu", purchase: t0 + 2 * d, signed: t0 + 2 * d, extra: ["price": 4990, "currency": "EUR"]))
        fixture.notify(
            "REFUND", uuid: "eur-refund", signed: t0 + 21 * d,
            transaction: F.transaction(
                "400", product: "pro.eu", purchase: t0 + 2 * d, signed: t0 + 21 * d,
                extra: [
                    "price": 4990, "currency": "EUR", "revocationDate": t0 + 20 * d + h, "revocationReason": 0,
                    "revocationType": "REFUND_FULL",
                ]))
        fixture.link("e", "400")
        let result = try runReport(try fixture.write())
        let refunds = try result.rows("refunds.csv")
        let eur = try #require(refunds.first { $0["transaction_id"] == "400" })
        #expect(eur["refunded_amount"] == "4.990000")
        #expect(eur["price_currency"] == "EUR")
        // 4.99 EUR x 1.20 (the rate from Oct 20) = 5.988 USD.
        #expect(eur["refunded_amount_converted"] == "5.988000")
        #expect(refunds.first { $0["transaction_id"] == "100" }?["refunded_amount_converted"] == "9.990000")
        #expect(try result.totals()["refunded_amount"] == "15.978000")
    }

    /// Rows in August and October (none in September): every month from August to the window's
    /// end, every class, zeros included; October equals totals.csv.
    @Test func trendHasEveryMonthAndClassUpToTheWindowsEnd() throws {
        var fixture = ReportScenarioTests().familyRefundMonth()
        fixture.cost("anon", at: t0 - 52 * d, "1.50")  // 2026-08-10, unlinked
        fixture.cost("p", at: t0 + 40 * d, "9.00")  // November: after the window, not in the trend
        let result = try runReport(try fixture.write())
        let rows = try result.rows("trend.csv")
        let classes = CostClass.allCases.map(\.reportName)
        #expect(rows.count == 3 * classes.count)
        #expect(rows.count == 30, "ten classes a month")
        #expect(
            rows.map { $0["month"] ?? "" } == ["2026-08", "2026-09", "2026-10"].flatMap { Array(repeating: $0, count: 10) })
        #expect(rows.prefix(10).map { $0["class"] ?? "" } == classes)
        func cost(_ month: String, _ costClass: String) -> String? {
            rows.first { $0["month"] == month && $0["class"] == costClass }?["cost"]
        }
        #expect(cost("2026-08", "unlinked") == "1.500000")
        #expect(cost("2026-08", "paid") == "0.000000")
        #expect(rows.filter { $0["month"] == "2026-09" }.allSatisfy { $0["cost"] == "0.000000" })
        let totals = try result.totals()
        for costClass in classes { #expect(cost("2026-10", costClass) == totals["cost_" + costClass]) }
    }

    /// A dashboard sums summary.csv: the product rows add up to totals.csv in every money and
    /// count column (leaked accounts are distinct accounts, so at most the sum).
    @Test func productRowsSumToTotalsOnTheSample() throws {
        let result = try runReport(try copyOfSample())
        let products = try result.rows("summary.csv")
        let totals = try result.totals()
        #expect(!products.isEmpty)
        #expect(!products.contains { $0["product_id"] == "*" })
        for column in SummaryFile.totals.header {
            switch column {
            case "period_start", "period_end", "as_of", "currency":
                #expect(Set(products.map { $0[column] }) == [totals[column]])
            case "refund_rate":
                // Worked out by hand: 19 App Store refunds of 131 purchases and renewals and 6 Google
                // Play refunds of 82 orders, 25 of 213, 0.11737..., so 0.1174.
                #expect(totals["refunds"] == "25" && totals["paid_transactions"] == "213")
                #expect(totals[column] == "0.1174")
            case "leaked_accounts":
                let sum = products.reduce(0) { $0 + (Int($1[column] ?? "") ?? 0) }
                #expect(try #require(Int(totals[column] ?? "")) <= sum)
            default:
                var sum = Money.zero
                for row in products { sum = try sum.adding(try Money.parse(row[column] ?? "")) }
                #expect(try Money.parse(totals[column] ?? "") == sum, "\(column): \(sum)")
            }
        }
    }
}
