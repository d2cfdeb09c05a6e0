/// What a column of an output file holds, which decides its type in each database and how a
/// field is checked before it is loaded.
///
/// Money is exact in both: `numeric(20,6)` in PostgreSQL, integer micro-units in SQLite (which
/// has no exact decimal type). Ids are text, never numbers: a 16-digit transaction id does not
/// survive a double.
package enum ColumnKind: Sendable, Hashable {
    case text
    case money
    case count
    /// `refund_rate`: four decimals.
    case rate
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, UTC.
    case timestamp
    case date
    case boolean
    /// A JSON document (a consumption answer's body, run.json).
    case json

    /// The type PostgreSQL's `format_type` names it by, so an existing table can be compared.
    package var postgresType: String {
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
    package var sqliteType: String {
        switch self {
        case .text, .timestamp, .date, .json: "TEXT"
        case .money, .count, .boolean: "INTEGER"
        case .rate: "REAL"
        }
    }
}
