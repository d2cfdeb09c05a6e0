internal import CLibPQ
import Glibc

/// A PostgreSQL connection string as libpq itself reads it (`PQconninfoParse`): the one way to
/// know which part of it is the password, whatever form it takes.
struct PostgresConnectionInfo {
    /// The options the string sets, as libpq names them.
    var values: [String: String] = [:]
    var isURI: Bool

    /// Nil when libpq cannot read `text`.
    ///
    /// libpq's own message is not kept: it quotes the string.
    init?(_ text: String) {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &message) else {
            if let message { PQfreemem(message) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        isURI = text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// `postgresql://user:***@host:port/dbname`, from what libpq read: the password is never in it.
    var shown: String {
        var shown = "postgresql://"
        if let user = values["user"] { shown += user }
        if values["password"] != nil { shown += ":***" }
        if values["user"] != nil || values["password"] != nil { shown += "@" }
        shown += values["host"] ?? values["hostaddr"] ?? ""
        if let port = values["port"] { shown += ":" + port }
        return shown + "/" + (values["dbname"] ?? "")
    }

    /// A URI whose password holds `@` or `/` as they are reads as a host, port or database
    /// name holding part of the password (libpq cuts the credentials at the first `@` or `/`):
    /// an `@` in any of them, or a port that is not digits, gives it away.
    var passwordLooksUnencoded: Bool {
        let cut = ["host", "port", "dbname"].contains { values[$0]?.contains("@") == true }
        let port = values["port"].map { !$0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ",") } } ?? false
        return cut || port
    }
}
