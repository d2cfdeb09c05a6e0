import Foundation
import Testing

@testable import TestSupport

/// One count per concept: run.json's `figures` equal the rows of the CSV files they count,
/// and the console and the page print those same numbers.
@Suite("Counts the page shows")
struct FigureCountTests {
    /// The rows of a CSV file as dictionaries, read with RFC 4180 quoting (no line breaks in fields).
    func rows(_ path: String) throws -> [[String: String]] {
        func fields(_ line: Substring) -> [String] {
            var fields: [String] = []
            var field = ""
            var quoted = false
            var previous: Character?
            for character in line {
                if character == "\"" {
                    if quoted && previous == "\"" { field.append("\"") }
                    quoted.toggle()
                } else if character == "," && !quoted {
                    fields.append(field)
                    field = ""
                } else {
                    field.append(character)
                }
                previous = character
            }
            return fields + [field]
        }
        let lines = try TestFiles.read(path).split(separator: "\n")
        guard let first = lines.first else { return [] }
        let header = fields(first)
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, fields($0))) }
    }

    @Test func everyCountEqualsTheRowsOfItsFile() throws {
        let data = try TestFiles.temporaryDirectory("generated") + "/data"
        let generate = try runTool(["generate", "--out", data, "--accounts", "1500", "--seed", "19", "--quiet"])
        #expect(generate.status == 0, "\(generate.stderr)")
        let out = try TestFiles.temporaryDirectory("out")
        let run = try runTool(["report", "--data", data, "--month", "2026-10", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        let folder = out + "/2026-10/"
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "run.json")))
        let figures = try #require((json as? [String: Any])?["figures"] as? [String: Any])
        func figure(_ name: String) -> Int { figures[name] as? Int ?? -1 }

        let leaks = try rows(folder + "leaks.csv")
        let ended = leaks.filter { $0["end_kind"] != "expiry" }
        let expired = leaks.filter { $0["end_kind"] == "expiry" }
        #expect(figure("leaking_accounts") == Set(ended.compactMap { $0["account_id"] }).count)
        #expect(figure("leak_rows") == ended.count)
        #expect(figure("expiry_rows") == expired.count)
        #expect(figure("expiry_accounts") == Set(expired.compactMap { $0["account_id"] }).count)
        let totals = try #require(try rows(folder + "totals.csv").first)
        #expect(figure("leaking_accounts_beyond_grace") == Int(totals["leaked_accounts"] ?? ""))
        #expect(figure("refunds") == (try rows(folder + "refunds.csv")).count)
        #expect(figure("refunds") == Int(totals["refunds"] ?? ""))
        let family = try rows(folder + "family_spend.csv")
        let members = family.filter { $0["role"] == "member" }
        #expect(figure("family_members") == Set(members.compactMap { $0["account_id"] }).count)
        #expect(
            figure("shared_purchases") == Set(family.compactMap { $0["purchaser_transaction_id"] }.filter { !$0.isEmpty }).count)
        let requests = try rows(folder + "consumption_requests.csv")
        #expect(figure("consumption_requests") == requests.count)
        let byOutcome = try #require(figures["consumption_by_apple_outcome"] as? [String: Int])
        for (outcome, count) in byOutcome { #expect(count == requests.filter { $0["outcome"] == outcome }.count, "\(outcome)") }
        let byRecommendation = try #require(figures["consumption_by_recommendation"] as? [String: Int])
        for (preference, count) in byRecommendation {
            #expect(count == requests.filter { $0["refund_preference"]?.lowercased() == preference }.count, "\(preference)")
        }
        // The generated month has every kind of count, so none of these checks is vacuous.
        #expect(figure("leaking_accounts") > 0 && figure("family_members") > 0 && figure("consumption_requests") > 0)
        #expect(figure("expiry_rows") > 0)

        // The console and the page print the same numbers.
        #expect(run.stdout.contains(" beyond grace), \(figure("leaking_accounts")) accounts; "), "\(run.stdout)")
        let page = try TestFiles.read(folder + "report.html")
        #expect(page.contains("served after a refund or a family exit, to \(figure("leaking_accounts")) accounts"))
        #expect(page.contains("of \(figure("leaking_accounts")) accounts.</p>"))
        #expect(page.contains("leaks.csv also lists \(figure("expiry_rows")) expired subscription"))
        #expect(page.contains("\(figure("family_members")) members in family_spend.csv"))
        #expect(page.contains("\(figure("consumption_requests")) refund requests. <b>Apple's decision</b>"))
        #expect(page.contains("<b>This tool's recommendation</b>"))
    }
}
