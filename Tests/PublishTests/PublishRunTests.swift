import Foundation
import Testing

@testable import Attribution
@testable import Publish
@testable import Report
@testable import Support
@testable import TestSupport

/// `publish` through the real CLI into a real PostgreSQL server (started here) and into
/// SQLite, checked with SQL from outside the tool: psql, and Python's sqlite3.
@Suite("publish", .serialized)
struct PublishRunTests {
    static let sample = TestFiles.packageRoot + "/reports/2026-10"

    /// The September report of the sample, written once per test that needs a second month.
    func septemberReport() throws -> String {
        let out = try TestFiles.temporaryDirectory("september")
        let data = TestFiles.packageRoot + "/Data/sample"
        let run = try runTool(["report", "--data", data, "--month", "2026-09", "--out", out, "--quiet"])
        try #require(run.status == 0, "\(run.stderr)")
        return out + "/2026-09"
    }

    /// A copy of a report folder, to spoil.
    func copy(_ folder: String, _ label: String = #function) throws -> String {
        let target = try TestFiles.temporaryDirectory(label) + "/" + URL(fileURLWithPath: folder).lastPathComponent
        try FileManager.default.copyItem(atPath: folder, toPath: target)
        return target
    }

    /// A data row of a CSV file, by column name ("" for a column it does not have).
    struct Fields {
        let values: [String: String]
        subscript(name: String) -> String { values[name] ?? "" }
    }

    func row(_ path: String, _ index: Int = 0) throws -> Fields {
        let records = try readRecords(path)
        return Fields(values: Dictionary(uniqueKeysWithValues: zip(records[0].fields, records[1 + index].fields)))
    }

    func dataRows(_ path: String) throws -> Int { try readRecords(path).count - 1 }

    /// `-12.345678` in micro-units, independently of the tool's parser.
    func micros(_ text: String) -> Int64 {
        let negative = text.hasPrefix("-")
        let digits = text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ".", with: "")
        return (negative ? -1 : 1) * (Int64(digits) ?? .min / 2)
    }

    func sqlite(_ database: String, _ statement: String) throws -> String {
        let script = """
            import sqlite3, sys
            rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()
            print("\\n".join("|".join("" if v is None else str(v) for v in r) for r in rows))
            """
        return try PostgresServer.run("/usr/bin/python3", ["-c", script, database, statement], asServerUser: false)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let moneyColumns = [
        "cost_total", "cost_paid", "cost_family_shared", "cost_premature", "cost_after_refund", "cost_after_family_exit",
        "cost_after_expiry", "cost_unentitled", "cost_unlinked", "leaked_cost", "leaked_cost_beyond_grace",
        "refunded_amount", "refund_sunk_cost", "recurring_loss_run_rate", "cost_billing_grace",
    ]

    /// Every money column of summary summed in SQL equals totals.csv, and the files whose
    /// money totals a figure sum to it; one copy of every row of every file.
    func checkSums(label: String, folder: String, query: (String) throws -> String, money: (String) -> Int64) throws {
        let totals = try row(folder + "/totals.csv")
        let sums = try query(
            "SELECT " + Self.moneyColumns.map { "sum(\($0))" }.joined(separator: ", ")
                + " FROM refund_cost_summary WHERE label = '\(label)'"
        ).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        for (column, sum) in zip(Self.moneyColumns, sums) {
            #expect(money(sum) == micros(totals[column]), "\(label) summary \(column): \(sum) vs totals \(totals[column])")
        }
        let byDay = try query("SELECT sum(cost) FROM refund_cost_cost_by_day WHERE label = '\(label)'")
        #expect(money(byDay) == micros(totals["cost_total"]))
        let trend = try query("SELECT sum(cost) FROM refund_cost_trend WHERE label = '\(label)' AND month = '\(label)'")
        #expect(money(trend) == micros(totals["cost_total"]))
        let sunk = try query("SELECT coalesce(sum(sunk_cost), 0) FROM refund_cost_refunds WHERE label = '\(label)'")
        #expect(money(sunk) == micros(totals["refund_sunk_cost"]))
        for file in [
            "summary", "totals", "trend", "cost_by_day", "refunds", "leaks", "subscription_loss", "family_links",
            "family_spend", "consumption_requests", "rejects",
        ] {
            let count = try query("SELECT count(*) FROM refund_cost_\(file) WHERE label = '\(label)'")
            #expect(Int(count) == (try dataRows(folder + "/\(file).csv")), "\(file): \(count) rows")
        }
        let answers = try TestFiles.read(folder + "/consumption_responses.jsonl").split(separator: "\n").count
        #expect(try query("SELECT count(*) FROM refund_cost_consumption_responses WHERE label = '\(label)'") == "\(answers)")
    }

    // MARK: SQLite

    @Test func sqliteHoldsEveryFileTypedAndSumsToTotals() throws {
        let database = try TestFiles.temporaryDirectory() + "/refund-cost.db"
        let first = try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("published 2026-10 into sqlite:\(database)"))
        try checkSums(label: "2026-10", folder: Self.sample, query: { try sqlite(database, $0) }, money: { Int64($0) ?? .min })

        // Money is integer micro-units; the _decimal view reads it in units.
        let total = try row(Self.sample + "/totals.csv")["cost_total"]
        #expect(
            try sqlite(database, "SELECT typeof(cost_total), cost_total FROM refund_cost_totals") == "integer|\(micros(total))")
        #expect(try sqlite(database, "SELECT cost_total FROM refund_cost_totals_decimal") == total)
        // Ids are text, whole; booleans are 0/1, and true/false in the view.
        let refund = try row(Self.sample + "/refunds.csv")
        #expect(
            try sqlite(database, "SELECT typeof(transaction_id), transaction_id FROM refund_cost_refunds ORDER BY rowid LIMIT 1")
                == "text|\(refund["transaction_id"])")
        let late = try readRecords(Self.sample + "/consumption_requests.csv").dropFirst().filter { $0.fields[15] == "true" }.count
        #expect(try sqlite(database, "SELECT sum(past_respond_by) FROM refund_cost_consumption_requests") == "\(late)")
        #expect(
            try sqlite(database, "SELECT count(*) FROM refund_cost_consumption_requests_decimal WHERE past_respond_by = 'true'")
                == "\(late)")
        // Every row carries the label, the window and when it was published.
        #expect(
            try sqlite(database, "SELECT DISTINCT label, period_start, period_end FROM refund_cost_leaks")
                == "2026-10|2026-10-01|2026-11-01")
        #expect(try sqlite(database, "SELECT count(DISTINCT published_at) FROM refund_cost_cost_by_day") == "1")
        // The journal's columns, not in this folder, are there and empty.
        #expect(try sqlite(database, "SELECT count(answer_state) FROM refund_cost_consumption_requests") == "0")

        // Republishing replaces: one copy, two runs recorded.
        let again = try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("replacing the"))
        try checkSums(label: "2026-10", folder: Self.sample, query: { try sqlite(database, $0) }, money: { Int64($0) ?? .min })
        #expect(
            try sqlite(database, "SELECT count(*), min(version) FROM refund_cost_runs WHERE label = '2026-10'")
                == "2|\(ToolVersion.current)")
        let sha = try sqlite(database, "SELECT json_extract(inputs, '$[0].sha256') FROM refund_cost_runs LIMIT 1")
        #expect(try TestFiles.read(Self.sample + "/run.json").contains("\"sha256\": \"\(sha)\""))

        // A second month sits beside the first.
        let september = try septemberReport()
        #expect(try runTool(["publish", "--report", september, "--database", "sqlite:" + database]).status == 0)
        try checkSums(label: "2026-09", folder: september, query: { try sqlite(database, $0) }, money: { Int64($0) ?? .min })
        try checkSums(label: "2026-10", folder: Self.sample, query: { try sqlite(database, $0) }, money: { Int64($0) ?? .min })
    }

    @Test func sqliteFailedOrKilledPublishLeavesThePreviousState() throws {
        let database = try TestFiles.temporaryDirectory() + "/refund-cost.db"
        try #require(try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database]).status == 0)
        let before = try sqlite(database, "SELECT count(*), min(published_at) FROM refund_cost_summary")

        // A bad value in a file loaded late stops the publish, naming file, line, column and value.
        let spoiled = try copy(Self.sample)
        let spend = spoiled + "/family_spend.csv"
        var lines = try TestFiles.read(spend).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[6] = "12,5"
        fields[6] = "\"12,5\""
        lines[1] = fields.joined(separator: ",")
        try TestFiles.write(lines.joined(separator: "\n"), to: spend)
        let failed = try runTool(["publish", "--report", spoiled, "--database", "sqlite:" + database])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("family_spend.csv:2: error: cost_entitled \"12,5\": not an amount with six decimals"))
        #expect(failed.stderr.contains("Nothing was published: sqlite:\(database) is as it was."))
        #expect(try sqlite(database, "SELECT count(*), min(published_at) FROM refund_cost_summary") == before)
        #expect(try sqlite(database, "SELECT count(*) FROM refund_cost_runs") == "1")

        // Killed while it loads: summary and totals are in, trend.csv is still being read.
        try killMidway(database: "sqlite:" + database)
        #expect(try sqlite(database, "SELECT count(*), min(published_at) FROM refund_cost_summary") == before)
        #expect(try sqlite(database, "SELECT count(*) FROM refund_cost_runs") == "1")
        try checkSums(label: "2026-10", folder: Self.sample, query: { try sqlite(database, $0) }, money: { Int64($0) ?? .min })
        // And the next publish goes through.
        #expect(try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database]).status == 0)
    }

    /// Publishes a copy of the sample whose trend.csv is a pipe the test holds open, so the
    /// publish is inside its transaction (summary and totals deleted and loaded) when killed.
    func killMidway(database: String) throws {
        let folder = try copy(Self.sample, "killed")
        let trend = folder + "/trend.csv"
        let content = try TestFiles.read(trend)
        try FileManager.default.removeItem(atPath: trend)
        try #require(mkfifo(trend, 0o600) == 0)
        let process = Process()
        process.executableURL = toolExecutable()
        process.arguments = ["publish", "--report", folder, "--database", database]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Opening the write end succeeds only once the publish opened trend.csv to read it.
        var writer: Int32 = -1
        for _ in 0..<600 where writer < 0 {
            writer = open(trend, O_WRONLY | O_NONBLOCK)
            if writer < 0 { usleep(50_000) }
        }
        try #require(writer >= 0, "the publish never reached trend.csv")
        let half = Array(content.utf8.prefix(content.utf8.count / 2))
        _ = half.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        usleep(200_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        close(writer)
        #expect(process.terminationReason == .uncaughtSignal)
    }

    @Test func sqliteTablesGainColumnsAndRefuseOnesThatDoNotMatch() throws {
        let database = try TestFiles.temporaryDirectory() + "/refund-cost.db"
        try #require(try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database]).status == 0)
        // A table from before refund_rate existed gets the column.
        _ = try sqlite(database, "DROP VIEW refund_cost_summary_decimal")
        _ = try sqlite(database, "ALTER TABLE refund_cost_summary DROP COLUMN refund_rate")
        let grown = try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database])
        #expect(grown.status == 0, "\(grown.stderr)")
        #expect(grown.stdout.contains("columns added: refund_cost_summary.refund_rate"))
        let rate = try row(Self.sample + "/summary.csv", 4)["refund_rate"]
        #expect(try sqlite(database, "SELECT refund_rate FROM refund_cost_summary ORDER BY rowid LIMIT 1 OFFSET 4") == rate)

        // A column of another type is an error naming it; nothing changes.
        let other = try TestFiles.temporaryDirectory() + "/other.db"
        _ = try sqlite(
            other,
            "CREATE TABLE refund_cost_trend (label TEXT, period_start TEXT, period_end TEXT, month TEXT, class TEXT, currency TEXT, cost TEXT, published_at TEXT)"
        )
        let retyped = try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + other])
        #expect(retyped.status == 1)
        #expect(retyped.stderr.contains("column cost of table refund_cost_trend is TEXT, but trend.csv holds it as INTEGER"))
        #expect(try sqlite(other, "SELECT count(*) FROM sqlite_master WHERE name = 'refund_cost_summary'") == "0")

        // A column this version does not write is refused too, not loaded around.
        _ = try sqlite(database, "ALTER TABLE refund_cost_leaks ADD COLUMN notes TEXT")
        let unknown = try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + database])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr.contains("table refund_cost_leaks has a column notes that this version of refund-cost does not write"))
    }

    /// A folder of 0.9.0 has no allocation.csv (0.10.0 added it): it still publishes, and the
    /// table holds none of its rows; a folder of this version without it is refused.
    @Test func aReportFromBeforeAFileExistedPublishesWithoutIt() throws {
        let folder = try TestFiles.temporaryDirectory() + "/2026-10"
        try FileManager.default.copyItem(atPath: Self.sample, toPath: folder)
        try FileManager.default.removeItem(atPath: folder + "/allocation.csv")
        let database = try TestFiles.temporaryDirectory() + "/refund-cost.db"
        let current = try runTool(["publish", "--report", folder, "--database", "sqlite:" + database])
        #expect(current.status == 1)
        #expect(current.stderr.contains("has no allocation.csv"))
        let run = try TestFiles.read(folder + "/run.json")
            .replacingOccurrences(of: "\"version\": \"\(ToolVersion.current)\"", with: "\"version\": \"0.9.0\"")
        try run.write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
        let older = try runTool(["publish", "--report", folder, "--database", "sqlite:" + database])
        #expect(older.status == 0, "\(older.stderr)")
        #expect(try sqlite(database, "SELECT count(*) FROM refund_cost_allocation") == "0")
        #expect(try sqlite(database, "SELECT count(*) FROM refund_cost_totals") == "1")
    }

    @Test func reportPublishesRightAfterARunAndKeepsTheFolderWhenPublishingFails() throws {
        let out = try TestFiles.temporaryDirectory()
        let database = out + "/refund-cost.db"
        let data = TestFiles.packageRoot + "/Data/sample"
        let run = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out + "/reports", "--publish", "sqlite:" + database,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("published 2026-10 into sqlite:"))
        try checkSums(
            label: "2026-10", folder: out + "/reports/2026-10", query: { try sqlite(database, $0) }, money: { Int64($0) ?? .min })

        // A database in a folder that does not exist says so.
        let nowhere = try runTool(["publish", "--report", Self.sample, "--database", "sqlite:" + out + "/no/such/x.db"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("the folder \(out)/no/such does not exist; create it, or give another path"))

        // Given the --out folder instead of a report in it, publish names the reports there.
        let parent = try runTool(["publish", "--report", out + "/reports", "--database", "sqlite:" + database])
        #expect(parent.status == 1)
        #expect(parent.stderr.contains("holds reports, not one report: give --report one of \(out)/reports/2026-10"))

        // Nobody listens on port 1: the report is written, the run says publishing failed.
        let failed = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out + "/again",
            "--publish", "postgresql://someone:hunter2@127.0.0.1:1/postgres",
        ])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("could not connect to postgresql://someone:***@127.0.0.1:1/postgres"))
        #expect(failed.stderr.contains("The report in \(out)/again/2026-10/ is written"))
        #expect(!failed.stderr.contains("hunter2") && !failed.stdout.contains("hunter2"))
        #expect(FileManager.default.fileExists(atPath: out + "/again/2026-10/report.html"))

        let badURL = try runTool([
            "report", "--data", data, "--month", "2026-10", "--out", out + "/third", "--publish", "mysql://x",
        ])
        #expect(badURL.status == 2)
        #expect(!FileManager.default.fileExists(atPath: out + "/third/2026-10"), "a mistyped URL stops before the report")
    }

    // MARK: Dashboards

    /// The three queries docs/outputs.md gives a dashboard to start from, as written there.
    func dashboardQueries() throws -> [String] {
        let docs = try TestFiles.read(TestFiles.packageRoot + "/docs/outputs.md")
        let section = docs.components(separatedBy: "**Three queries to start from**").dropFirst().first ?? ""
        let queries = section.components(separatedBy: "**Credentials.**")[0].components(separatedBy: "```sql\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0].trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(queries.count == 3, "docs/outputs.md gives three queries")
        return queries
    }

    /// September and October published: every month answered once, by the latest label
    /// holding it; the three queries of the docs answer what the files say; publish's count is
    /// the one `refund_cost_runs` records.
    func checkDashboards(publish: (String) throws -> ToolRun, query: (String) throws -> String, money: (String) -> Int64)
        throws
    {
        let september = try septemberReport()
        for folder in [september, Self.sample] {
            let run = try publish(folder)
            #expect(run.status == 0, "\(run.stderr)")
            let label = URL(fileURLWithPath: folder).lastPathComponent
            let recorded = try query("SELECT rows_published FROM refund_cost_runs WHERE label = '\(label)'")
            #expect(
                run.stdout.contains(": \(HumanText.count(Int(recorded) ?? -1)) rows in "),
                "said once: \(run.stdout) vs \(recorded)")
        }
        // What the latest label's trend.csv says of each month, summed here from the file.
        var leakedByMonth: [String: Int64] = [:]
        for record in try readRecords(Self.sample + "/trend.csv").dropFirst()
        where ["after_refund", "after_family_exit"].contains(record.fields[1]) {
            leakedByMonth[record.fields[0], default: 0] += micros(record.fields[3])
        }
        let queries = try dashboardQueries()
        let trend = try query(queries[0]).split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        #expect(trend.map { $0[0] } == leakedByMonth.keys.sorted(), "\(trend)")
        for row in trend { #expect(money(row[1]) == leakedByMonth[row[0]], "\(row)") }
        let naive = try query("SELECT count(*) FROM refund_cost_trend WHERE month = '2026-09'")
        #expect(Int(naive) == 2 * CostClass.allCases.count, "the table itself holds September in both labels")

        var sunkByProduct: [String: Int64] = [:]
        for folder in [september, Self.sample] {
            for record in try readRecords(folder + "/summary.csv").dropFirst() {
                sunkByProduct[record.fields[3], default: 0] += micros(record.fields[23])
            }
        }
        let products = try query(queries[1]).split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false)
        }
        #expect(products.count == sunkByProduct.count)
        for row in products { #expect(money(String(row[1])) == sunkByProduct[String(row[0])], "\(row)") }
        #expect(products.map { money(String($0[1])) } == products.map { money(String($0[1])) }.sorted(by: >))

        var beyondByAccount: [String: Int64] = [:]
        for record in try readRecords(Self.sample + "/leaks.csv").dropFirst() {
            beyondByAccount[record.fields[0], default: 0] += micros(record.fields[10])
        }
        let expected = beyondByAccount.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10)
        let accounts = try query(queries[2]).split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        #expect(accounts.map { $0[0] } == expected.map(\.key), "\(accounts)")
        #expect(accounts.map { money($0[1]) } == expected.map(\.value))
    }

    @Test func sqliteDashboardsGetOneAnswerPerMonth() throws {
        let database = "sqlite:" + (try TestFiles.temporaryDirectory() + "/refund-cost.db")
        try checkDashboards(
            publish: { try runTool(["publish", "--report", $0, "--database", database]) },
            query: { try sqlite(String(database.dropFirst("sqlite:".count)), $0) }, money: { Int64($0) ?? .min })
    }

    @Test func postgresDashboardsGetOneAnswerPerMonth() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try checkDashboards(
            publish: { try runTool(["publish", "--report", $0, "--database", server.url]) }, query: server.sql, money: micros)
    }

    // MARK: PostgreSQL

    @Test func postgresHoldsEveryFileTypedAndSumsToTotalsAndReplacesAMonthAtomically() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let first = try runTool(["publish", "--report", Self.sample, "--database", server.url])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("into postgresql://refundcost:***@127.0.0.1:\(server.port)/postgres"))
        #expect(!first.stdout.contains(PostgresServer.password))
        // numeric sums print with their six decimals.
        try checkSums(label: "2026-10", folder: Self.sample, query: server.sql, money: micros)
        #expect(
            try server.sql("SELECT cost_total FROM refund_cost_totals") == (try row(Self.sample + "/totals.csv"))["cost_total"])
        #expect(
            try server.sql(
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'refund_cost_summary'::regclass AND attname IN ('cost_total', 'product_id', 'as_of', 'refunds', 'period_start') ORDER BY attnum"
            ) == "date\ntimestamp with time zone\ntext\nnumeric(20,6)\nbigint")
        let refund = try row(Self.sample + "/refunds.csv")
        #expect(
            try server.sql(
                "SELECT pg_typeof(transaction_id), transaction_id FROM refund_cost_refunds ORDER BY revocation_date, transaction_id LIMIT 1"
            )
                == "text|\(refund["transaction_id"])")
        let refunds = try dataRows(Self.sample + "/refunds.csv")
        #expect(
            try server.sql(
                "SELECT count(*) FROM refund_cost_refunds WHERE revocation_date >= '2026-10-01T00:00:00Z' AND revocation_date < '2026-11-01T00:00:00Z'"
            ) == "\(refunds)")
        let late = try readRecords(Self.sample + "/consumption_requests.csv").dropFirst().filter { $0.fields[15] == "true" }.count
        #expect(try server.sql("SELECT count(*) FROM refund_cost_consumption_requests WHERE past_respond_by") == "\(late)")
        #expect(
            try server.sql("SELECT count(*) FROM refund_cost_consumption_responses WHERE body->>'customerConsented' = 'true'")
                == (try server.sql("SELECT count(*) FROM refund_cost_consumption_responses")))

        // Republish: one copy; a second month beside it.
        #expect(try runTool(["publish", "--report", Self.sample, "--database", server.url]).status == 0)
        try checkSums(label: "2026-10", folder: Self.sample, query: server.sql, money: micros)
        #expect(try server.sql("SELECT count(*) FROM refund_cost_runs WHERE label = '2026-10'") == "2")
        let september = try septemberReport()
        #expect(try runTool(["publish", "--report", september, "--database", server.url]).status == 0)
        try checkSums(label: "2026-09", folder: september, query: server.sql, money: micros)
        try checkSums(label: "2026-10", folder: Self.sample, query: server.sql, money: micros)

        // Killed midway: the previous state, and the server's lock is free for the next publish.
        let before = try server.sql("SELECT count(*), min(published_at) FROM refund_cost_summary WHERE label = '2026-10'")
        try killMidway(database: server.url)
        #expect(try server.sql("SELECT count(*), min(published_at) FROM refund_cost_summary WHERE label = '2026-10'") == before)
        #expect(try server.sql("SELECT count(*) FROM refund_cost_runs") == "3")
        try checkSums(label: "2026-10", folder: Self.sample, query: server.sql, money: micros)
        #expect(try runTool(["publish", "--report", Self.sample, "--database", server.url], timeout: 60).status == 0)
    }

    @Test func postgresCredentialsComeAsForPsqlAndAPasswordIsNeverPrinted() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let wrong = "postgresql://\(PostgresServer.user):not-the-Pa55@127.0.0.1:\(server.port)/postgres"
        let refused = try runTool(["publish", "--report", Self.sample, "--database", wrong])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("password authentication failed"))
        #expect(refused.stderr.contains("refundcost:***@127.0.0.1"))
        #expect(!(refused.stderr + refused.stdout).contains("not-the-Pa55"))

        let fromEnvironment = try runTool(
            ["publish", "--report", Self.sample, "--database", server.urlWithoutPassword],
            environment: ["PGPASSWORD": PostgresServer.password])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")

        let passfile = try TestFiles.temporaryDirectory() + "/pgpass"
        try TestFiles.write("127.0.0.1:\(server.port):*:\(PostgresServer.user):\(PostgresServer.password)\n", to: passfile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passfile)
        let fromFile = try runTool(
            ["publish", "--report", Self.sample, "--database", server.urlWithoutPassword],
            environment: ["PGPASSFILE": passfile, "PGPASSWORD": ""])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try server.sql("SELECT count(*) FROM refund_cost_runs") == "2")

        // Every form libpq reads: the keywords publish too, and no form prints its password.
        let port = server.port
        let keywords =
            "host=127.0.0.1 port=\(port) user=\(PostgresServer.user) password=\(PostgresServer.password) dbname=postgres"
        let viaKeywords = try runTool(["publish", "--report", Self.sample, "--database", keywords, "--quiet"])
        #expect(viaKeywords.status == 0, "\(viaKeywords.stderr)")
        let secret = "Wr0ng-Se@cr/et"
        let forms = [
            "host=127.0.0.1 port=\(port) user=refundcost password=\(secret.replacingOccurrences(of: "/", with: "")) dbname=postgres",
            "POSTGRESQL://refundcost:\(secret.replacingOccurrences(of: "@", with: "%40").replacingOccurrences(of: "/", with: "%2F"))@127.0.0.1:\(port)/postgres",
            "postgresql://refundcost:\(secret)@127.0.0.1:\(port)/postgres",
            "postgresql://refundcost@127.0.0.1:\(port)/postgres?PASSWORD=\(secret)",
            "postgresql://refundcost@127.0.0.1:\(port)/postgres?password=\(secret.replacingOccurrences(of: "/", with: "%2F"))",
            "postgres://refundcost:\(secret)@/postgres?host=127.0.0.1",
        ]
        for form in forms {
            for command in [
                ["publish", "--report", Self.sample, "--database", form], ["publish", "--report", Self.sample, form],
                [
                    "report", "--data", TestFiles.packageRoot + "/Data/sample", "--month", "2026-10", "--out",
                    try TestFiles.temporaryDirectory(), "--publish", form,
                ],
            ] {
                let run = try runTool(command)
                #expect(run.status != 0, "\(form)")
                let said = run.stdout + run.stderr
                for piece in ["Wr0ng", "Se@cr", "cr/et", "cr%2Fet", "Secret", "Secr"] {
                    #expect(!said.contains(piece), "\(command.prefix(2)) with \(form) printed a piece of its password: \(said)")
                }
            }
        }

        // The same shape checks as SQLite: a retyped column is named, a later version's columns are added.
        _ = try server.sql("ALTER TABLE refund_cost_summary DROP COLUMN refund_rate")
        let grown = try runTool(["publish", "--report", Self.sample, "--database", server.url])
        #expect(grown.stdout.contains("columns added: refund_cost_summary.refund_rate"), "\(grown.stderr)")
        // A column retyped by hand (the view over the table dropped first, as PostgreSQL requires).
        _ = try server.sql("DROP VIEW refund_cost_trend_latest")
        _ = try server.sql("ALTER TABLE refund_cost_trend ALTER COLUMN cost TYPE double precision")
        let retyped = try runTool(["publish", "--report", Self.sample, "--database", server.url])
        #expect(retyped.status == 1)
        #expect(
            retyped.stderr.contains(
                "column cost of table refund_cost_trend is double precision, but trend.csv holds it as numeric(20,6)"))
    }
}

/// The tables `publish` makes are the files `report` writes: same names, same columns in the
/// same order, so a column added to a file cannot be forgotten in its table.
@Suite("publish: tables follow the files")
struct OutputTableTests {
    @Test func everyTableHasTheColumnsOfItsFile() throws {
        let folder = TestFiles.packageRoot + "/reports/2026-10"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".csv") || $0.hasSuffix(".jsonl") }.sorted()
        #expect(files == OutputTables.all.map(\.file).sorted(), "one table per file of a report folder")
        for table in OutputTables.all where !table.isJSONLines {
            let header = try readRecords(folder + "/" + table.file)[0].fields
            let written = table.columns.map(\.name).filter {
                table.file != "consumption_requests.csv" || !ConsumptionFiles.journalColumns.contains($0)
            }
            #expect(written == header, "\(table.file)")
            #expect(table.table == "refund_cost_" + table.file.dropLast(4))
        }
    }

    /// docs/contract.md lists every CSV file the report declares with its columns, in order,
    /// and docs/outputs.md has a section for each: the interface and its declaration agree.
    @Test func theDocsListEveryDeclaredFileWithItsColumns() throws {
        let contract = try TestFiles.read(TestFiles.packageRoot + "/docs/contract.md")
        let outputs = try TestFiles.read(TestFiles.packageRoot + "/docs/outputs.md")
        for file in ReportFiles.dataFiles {
            #expect(outputs.contains("\n## \(file.name)\n"), "docs/outputs.md has no section for \(file.name)")
            guard !file.isJSONLines, file.name != "totals.csv" else { continue }
            let written = file.header.filter {
                file.name != "consumption_requests.csv" || !ConsumptionFiles.journalColumns.contains($0)
            }
            #expect(
                contract.contains("| `\(file.name)` |") && contract.contains("`" + written.joined(separator: ",") + "`"),
                "docs/contract.md lists \(file.name) with its columns: \(written.joined(separator: ","))")
        }
    }

    @Test func fieldsAreCheckedAsTheirColumnsHoldThem() throws {
        #expect(try FieldValue.checked("-12.345678", as: .money) == .integer(-12_345_678, text: "-12.345678"))
        #expect(throws: FieldValueError.self) { try FieldValue.checked("12.5", as: .money) }
        #expect(throws: FieldValueError.self) { try FieldValue.checked("1e3", as: .count) }
        #expect(throws: FieldValueError.self) { try FieldValue.checked("2026-10-01", as: .timestamp) }
        #expect(throws: FieldValueError.self) { try FieldValue.checked("yes", as: .boolean) }
        #expect(try FieldValue.checked("", as: .money) == .null)
        // The spreadsheet guard comes off; a leading quote that guards nothing stays.
        #expect(try FieldValue.checked("'-5", as: .text) == .text("-5"))
        #expect(try FieldValue.checked("'quoted", as: .text) == .text("'quoted"))
        #expect(
            try DatabaseURL("postgresql://me:pa55@db:5432/x?sslmode=require&password=pa55").shown
                == "postgresql://me:***@db:5432/x")
        #expect(try DatabaseURL("POSTGRES://me@db/x").shown == "postgresql://me@db/x")
        #expect(try DatabaseURL("host=db user=me password='p a s s' dbname=x").shown == "postgresql://me:***@db/x")
        #expect(throws: DatabaseURLError.passwordNotEncoded) { try DatabaseURL("postgresql://me:p@ss@db/x") }
        #expect(throws: DatabaseURLError.passwordNotEncoded) { try DatabaseURL("postgresql://me:p/ss@db/x") }
        #expect(throws: DatabaseURLError.notAConnectionString) { try DatabaseURL("postgresql://me@db/x?PASSWORD=p") }
        #expect(throws: DatabaseURLError.notAConnectionString) { try DatabaseURL("mysql://x") }
        #expect(try DatabaseURL("sqlite:///tmp/a.db") == .sqlite(path: "/tmp/a.db"))
        #expect(try DatabaseURL("sqlite:out/a.db") == .sqlite(path: "out/a.db"))
    }
}
