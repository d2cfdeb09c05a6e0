import Foundation
import Testing

@testable import TestSupport

/// `generate --stores apple,play`: a Google Play part beside the App Store's, which stays the
/// same bytes, read clean by `validate` with the counts the generator says it made.
@Suite struct GenerateStoresTests {
    func generate(_ out: String, _ extra: [String]) throws -> ToolRun {
        try runTool(["generate", "--out", out, "--accounts", "1200", "--seed", "5"] + extra)
    }

    func files(under root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &folder) && !folder.boolValue
        }.sorted()
    }

    /// `name  count` lines of generate's scenario list.
    func scenarios(_ stdout: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count == 2, let count = Int(parts[1]) { found[String(parts[0])] = count }
        }
        return found
    }

    @Test func thePlayPartIsAddedAndTheAppStorePartIsTheSameBytes() throws {
        let apple = try TestFiles.temporaryDirectory("apple")
        let both = try TestFiles.temporaryDirectory("both")
        #expect(try generate(apple, []).status == 0)
        let run = try generate(both, ["--stores", "apple,play"])
        #expect(run.status == 0, "\(run.stderr)")
        let made = scenarios(run.stdout)
        let appleFiles = files(under: apple)
        #expect(files(under: both) == (appleFiles + files(under: both).filter { $0.hasPrefix("play/") }).sorted())
        for path in appleFiles {
            let mine = try TestFiles.read(both + "/" + path)
            let theirs = try TestFiles.read(apple + "/" + path)
            if path.hasPrefix("costs/") || path == "consent.csv" {
                // The Play accounts' rows are added; the App Store's are the same, in the same order.
                let isPlays = { (line: Substring) in line.contains(",play-") || line.hasPrefix("play-") }
                let kept = mine.split(separator: "\n", omittingEmptySubsequences: false).filter { !isPlays($0) }
                #expect(kept.joined(separator: "\n") == theirs, "\(path)")
                #expect(mine.split(separator: "\n").contains(where: isPlays), "\(path) holds Play accounts' rows")
            } else {
                #expect(mine == theirs, "\(path)")
            }
        }
        // One Play account for every four asked, each with one purchase.
        let purchases = try TestFiles.read(both + "/play/purchases/purchases.jsonl").split(separator: "\n")
        #expect(purchases.count == 300)
        for name in ["play_chargeback", "play_refund", "play_partial_refund", "play_refund_review", "play_subscription_revoked"] {
            #expect((made[name] ?? 0) > 0, "\(name) is made")
        }

        let validate = try runTool(["validate", "--data", both])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(!validate.stdout.contains("rejected:"), "\(validate.stdout)")
        // Every order has its account, every void and refund review its order.
        for item in ["Play order", "voided purchase", "pending refund review", "purchase token", "names 2 apps"] {
            #expect(!validate.stdout.contains(item), "\(item): \(validate.stdout)")
        }
        let voids =
            (made["play_chargeback"] ?? 0) + (made["play_refund"] ?? 0) + (made["play_partial_refund"] ?? 0)
            + (made["play_subscription_revoked"] ?? 0)
        #expect(
            validate.stdout.contains(
                PlayInputTests.row(
                    "voided: all / chargebacks / partial",
                    "\(voids) / \(made["play_chargeback"] ?? 0) / \(made["play_partial_refund"] ?? 0)")), "\(validate.stdout)")
        let oneTime =
            (made["play_kept"] ?? 0) + (made["play_chargeback"] ?? 0) + (made["play_refund"] ?? 0)
            + (made["play_partial_refund"] ?? 0) + (made["play_refund_review"] ?? 0)
        #expect(
            validate.stdout.contains(PlayInputTests.row("purchases: one-time / subscription", "\(oneTime) / \(300 - oneTime)")))

        let again = try TestFiles.temporaryDirectory("again")
        #expect(try generate(again, ["--stores", "apple,play"]).status == 0)
        for path in files(under: both) where path.hasPrefix("play/") {
            #expect(try TestFiles.read(again + "/" + path) == TestFiles.read(both + "/" + path), "\(path) is deterministic")
        }
    }

    @Test func aStoreListWithoutTheAppStoreOrWithASliceIsRefused() throws {
        let out = try TestFiles.temporaryDirectory("out")
        let playOnly = try generate(out, ["--stores", "play"])
        #expect(playOnly.status == 2 && playOnly.stderr.contains("apple or apple,play"), "\(playOnly.stderr)")
        let sliced = try generate(out, ["--stores", "apple,play", "--hold-after", "2026-10-15"])
        #expect(sliced.status == 2 && sliced.stderr.contains("play/ is written whole"), "\(sliced.stderr)")
    }
}
