import Report

/// What each kind of column is in each database. Money is exact in both: `numeric(20,6)` in
/// PostgreSQL, integer micro-units in SQLite (which has no exact decimal type).
extension ColumnKind {
    /// The type PostgreSQL's `format_type` names it by, so an existing table can be compared.
    var postgresType: String {
        switch self {
        case .text: "text"
        case .money: "numeric(20,6)"
        case .count: "bigint"
        case .rate: "numeric(12,4)"
        case .timestamp: "timestamp with time zone"
        case .date: "date"
        case .boolean: "boolean"
        case .json: "jsonb"
        }
    }

    /// The declared type in SQLite (what `PRAGMA table_info` gives back).
    var sqliteType: String {
        switch self {
        case .text, .timestamp, .date, .json: "TEXT"
        case .money, .count, .boolean: "INTEGER"
        case .rate: "REAL"
        }
    }
}
