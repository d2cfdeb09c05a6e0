import Publish
import Support

/// `refund-cost publish`: a finished report folder into PostgreSQL or SQLite, for dashboards.
enum PublishCommand: Command {
    static let report = Option.path("report", "DIR", help: "A folder refund-cost report wrote, like out/2026-10.")
    static let database = Option(
        "database", "URL",
        help: "postgresql://USER@HOST:PORT/DB (libpq's URL) or sqlite:PATH (a file, created when missing).")
    static let quiet = Flag("quiet", help: "Print nothing when it worked.")

    static let spec = CommandSpec(
        name: "publish",
        summary: "Load a finished report folder into PostgreSQL or SQLite, replacing that month in one transaction.",
        usage: "refund-cost publish --report OUT/LABEL --database URL [options]",
        options: [report.spec, database.spec, quiet.spec, CommonOptions.help],
        discussion: """
            Each file of the folder goes into its own table, refund_cost_ and the file's name
            (refund_cost_summary, refund_cost_cost_by_day, ...), every row with the report's label,
            period_start, period_end and published_at; refund_cost_runs gets one row per publish
            (label, version, the inputs' checksums from run.json, the row counts, run.json itself).
            Types come from docs/outputs.md: money exact (numeric(20,6) in PostgreSQL, integer
            micro-units in SQLite, with a view TABLE_decimal in units), ids as text, timestamps as
            timestamptz (ISO text in SQLite), booleans as booleans (0/1 in SQLite).

            Publishing a label again replaces its rows: the old ones are deleted and the new ones
            inserted in one transaction, so a dashboard sees the previous month or the new one,
            never half of one or two copies. Tables missing a column a later version added get it
            (ALTER TABLE ... ADD COLUMN); a column of another type, or one this version does not
            know, stops the publish naming it. Any failure leaves the database as it was.

            PostgreSQL credentials come from the URL, PGPASSWORD, ~/.pgpass or PGPASSFILE, as for
            psql; a password is never printed. `report --publish URL` publishes right after a report.

            Exit status: 0 published; 1 the folder or the database refused it (nothing changed);
            2 usage error.
            """,
        examples: [
            "refund-cost publish --report reports/2026-10 --database sqlite:/tmp/refund-cost-example/refund-cost.db"
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let folder = try arguments.required(report)
        let url = try databaseURL(try arguments.required(database), option: database, arguments: arguments)
        let outcome = try publish(folder, to: url)
        if !arguments.isSet(quiet) { print(outcome) }
        return 0
    }

    /// A database URL as given to `option`, or a usage error saying which forms there are (and
    /// never repeating the value: it may hold a password).
    static func databaseURL(_ text: String, option: Option<String>, arguments: ParsedArguments) throws(UsageError)
        -> DatabaseURL
    {
        do {
            return try DatabaseURL(text)
        } catch {
            throw arguments.invalid(option, text: HumanText.notShown, expected: error.description)
        }
    }

    /// Publishes and says in one line what was loaded; a failure says the database is unchanged.
    static func publish(_ folder: String, to url: DatabaseURL) throws -> String {
        let started = Clock.monotonicSeconds()
        let outcome: PublishOutcome
        do throws(PublishError) {
            outcome = try PublishRun.publish(report: folder, to: url)
        } catch {
            var diagnostic = error.diagnostic
            diagnostic.message += "\nNothing was published: \(url.shown) is as it was."
            throw PublishCommandError(diagnostic: diagnostic)
        }
        let seconds = Clock.monotonicSeconds() - started
        var line =
            "published \(outcome.label) into \(outcome.database): \(Format.count(outcome.rows)) rows in "
            + "\(outcome.tables.count) tables in \(Format.seconds(seconds))"
        line += outcome.replacedRows > 0 ? " (replacing the \(Format.count(outcome.replacedRows)) rows published before)" : ""
        if !outcome.addedColumns.isEmpty { line += "\n  columns added: " + outcome.addedColumns.joined(separator: ", ") }
        return line
    }
}
