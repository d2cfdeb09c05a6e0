/// Where to publish: `postgresql://...` (or `postgres://...`, handed to libpq as written) or
/// `sqlite:PATH` (`sqlite:///abs/path.db` also reads as the path `/abs/path.db`).
package enum DatabaseURL: Sendable, Equatable {
    case postgres(String)
    case sqlite(path: String)

    package init?(_ text: String) {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
            self = .postgres(text)
        } else if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("///") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty, !path.hasPrefix("//") else { return nil }
            self = .sqlite(path: path)
        } else {
            return nil
        }
    }

    /// The URL as messages may show it: a password in it is replaced by `***`.
    package var shown: String {
        switch self {
        case .sqlite(let path): return "sqlite:" + path
        case .postgres(let url): return Self.withoutPassword(url)
        }
    }

    /// `scheme://user:secret@host/...` -> `scheme://user:***@host/...`; also a `password=`
    /// query parameter.
    package static func withoutPassword(_ url: String) -> String {
        let scheme = url.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        guard url.hasPrefix(scheme) else { return url }
        let rest = url.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            if let colon = credentials.firstIndex(of: ":") {
                authority = String(credentials[..<colon]) + ":***" + String(authority[at...])
            }
        }
        var tail = String(rest[authorityEnd...])
        if let query = tail.firstIndex(of: "?") {
            let parameters = tail[tail.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("password=") ? "password=***" : String($0) }
            tail = String(tail[...query]) + parameters.joined(separator: "&")
        }
        return scheme + authority + tail
    }

    /// Opens the database.
    package func open() throws(DatabaseError) -> any PublishDatabase {
        switch self {
        case .postgres(let url): try PostgresDatabase(url: url, shownURL: shown)
        case .sqlite(let path): try SQLiteDatabase(path: path)
        }
    }
}
