/// Where to publish: PostgreSQL, as libpq reads a connection string (a `postgresql://` or
/// `postgres://` URI, its scheme in any case, or libpq's keywords `host=... dbname=...`), or
/// SQLite, `sqlite:PATH` (`sqlite:///abs/path.db` also reads as the path `/abs/path.db`).
///
/// A connection string may hold a password, so it is never shown as given: messages show
/// `shown`, made from what libpq read, the password as `***`.
package enum DatabaseURL: Sendable, Equatable {
    case postgres(String, shown: String)
    case sqlite(path: String)

    package init(_ text: String) throws(DatabaseURLError) {
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("///") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty, !path.hasPrefix("//") else { throw .noSQLitePath }
            self = .sqlite(path: path)
            return
        }
        // URI schemes are case-insensitive; libpq reads only the lower-case ones.
        var given = text
        for scheme in ["postgresql://", "postgres://"] where text.lowercased().hasPrefix(scheme) {
            given = scheme + text.dropFirst(scheme.count)
        }
        guard let read = PostgresConnectionInfo(given) else { throw .notAConnectionString }
        if read.isURI, read.passwordLooksUnencoded { throw .passwordNotEncoded }
        self = .postgres(given, shown: read.shown)
    }

    /// The connection as messages may show it: never the password.
    package var shown: String {
        switch self {
        case .sqlite(let path): "sqlite:" + path
        case .postgres(_, let shown): shown
        }
    }

    /// Opens the database.
    package func open() throws(DatabaseError) -> any PublishDatabase {
        switch self {
        case .postgres(let url, let shown): try PostgresDatabase(url: url, shownURL: shown)
        case .sqlite(let path): try SQLiteDatabase(path: path)
        }
    }
}

/// A `--database` value that cannot be used; what it says never quotes the value.
package enum DatabaseURLError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAConnectionString
    case passwordNotEncoded
    case noSQLitePath

    package var description: String {
        switch self {
        case .notAConnectionString:
            "postgresql://USER@HOST:PORT/DATABASE, libpq's keywords (host=HOST dbname=DATABASE ...) or sqlite:PATH; "
                + "libpq cannot read the value given (not shown here: it may hold a password)"
        case .passwordNotEncoded:
            "a URL whose password writes '@' as %40 and '/' as %2F (this one seems to hold them as they are; it is not "
                + "shown here), or the password in PGPASSWORD or ~/.pgpass instead"
        case .noSQLitePath: "sqlite:PATH with a path, such as sqlite:reports.db or sqlite:///var/lib/reports.db"
        }
    }
}
