import Foundation
import Testing

@testable import Attribution
@testable import Ingest
@testable import Ledger
@testable import Pipeline
@testable import Report
@testable import Support
@testable import Synthetic
@testable import TestSupport

@Suite("Synthetic dataset generator")
struct GeneratorTests {
    static let scenarios = [
        "family_1_members", "family_5_members", "renewal", "yearly_subscription", "non_consumable", "refund_full",
        "refund_prorated", "family_refund", "family_exit_dated", "family_exit_undated", "refund_reversed", "upgrade",
        "consumable_buyer", "consumption_request", "consumption_refund_granted", "consumption_refund_declined",
        "second_valid_transaction", "server_leak_member", "server_leak_purchaser", "server_leak_exit", "premature_grant",
        "expiry", "served_after_expiry", "free_use_before_purchase", "unlinked_account", "sandbox_notification",
        "duplicate_notification", "v1_notification", "late_event", "linked_by_token", "duplicate_cost_row",
        "foreign_currency_cost_row", "billing_grace_recovered", "billing_grace_unpaid",
    ]

    func files(under root: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue { found[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)) }
        }
        return found
    }

    @Test func sameSeedGivesTheSameBytesAndAnotherSeedDoesNot() throws {
        let options = GeneratorOptions(accounts: 300, seed: 11, months: 2, costRowsPerAccount: 5)
        let first = try TestFiles.temporaryDirectory("first")
        let second = try TestFiles.temporaryDirectory("second")
        let other = try TestFiles.temporaryDirectory("other")
        _ = try DatasetGenerator.generate(options, into: first)
        _ = try DatasetGenerator.generate(options, into: second)
        var changed = options
        changed.seed = 12
        _ = try DatasetGenerator.generate(changed, into: other)
        let a = try files(under: first)
        #expect(a.count >= 8)
        #expect(a == (try files(under: second)))
        #expect(a != (try files(under: other)))
    }

    @Test func everyScenarioIsThereAndEverythingIngestsCleanly() throws {
        let root = try TestFiles.temporaryDirectory()
        let summary = try DatasetGenerator.generate(GeneratorOptions(accounts: 2500, seed: 5, costRowsPerAccount: 4), into: root)
        for scenario in GeneratorTests.scenarios {
            #expect((summary.scenarios[scenario] ?? 0) > 0, "no \(scenario) in the generated data")
        }
        #expect(summary.accounts == 2500)
        // The whole dataset reads through the real ingestion with no reject at all.
        let layout = try InputLayout(root: root)
        let rejects = RejectLog()
        var costRows = 0
        let reader = CostFileReader(rejects: rejects)
        for path in layout.costFiles { costRows += try reader.read(path: path) { _ in }.rows }
        #expect(costRows == summary.costRows)
        let (ledger, load, ledgerRejects) = try buildLedger(
            root, asOf: Timestamp(milliseconds: GeneratorOptions(accounts: 1, seed: 1).windowEnd).milliseconds)
        #expect(rejects.count == 0)
        #expect(ledgerRejects.count == 0, "\(ledgerRejects.firstRejects)")
        // Retries of Sandbox or late notifications are left out before they are seen as retries.
        #expect(load.input.counts.duplicateNotifications > 0)
        #expect(load.input.counts.duplicateNotifications <= summary.scenarios["duplicate_notification"] ?? 0)
        #expect(load.input.counts.v1Notifications == summary.scenarios["v1_notification"])
        #expect(load.input.counts.notificationsSignedAfterAsOf > 0)
        let kinds = Set(ledger.transactions.compactMap { $0.end?.kind })
        #expect(kinds == Set(EndKind.allCases))
        let methods = Set(ledger.familyLinks.map(\.method))
        #expect(methods.contains(.revocationMatch) && methods.contains(.purchaseMatch))
        // Billing grace read back from the renewal info: some recovered, some never paid.
        #expect(ledger.transactions.contains { $0.grace != nil && $0.grace?.recoveredBy != nil })
        #expect(ledger.transactions.contains { $0.grace != nil && $0.grace?.recoveredBy == nil })
        #expect(load.input.renewals.count > 0)
    }
}
