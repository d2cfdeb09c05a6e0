import Report

/// Every file of a report folder that `publish` loads, as the report declares it
/// (`ReportFiles.dataFiles`): one table a file, its columns and their kinds the writer's own.
package enum OutputTables {
    package static let all: [OutputTable] = ReportFiles.dataFiles.map(OutputTable.init(file:))

    /// `trend.csv`, whose months repeat in every later label (`LatestViews`).
    package static let trend = OutputTable(file: ReportFiles.trend)

    /// One row per publish: what was loaded, from which inputs, by which version.
    package static let runs = OutputTable(
        "runs",
        [
            ("period_start", .date), ("period_end", .date), ("as_of", .timestamp), ("version", .text),
            ("inputs", .json), ("tables", .json), ("rows_published", .count), ("run_json", .json),
        ])
}
