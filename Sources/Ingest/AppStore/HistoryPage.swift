import Support

/// A page of an App Store Server API history response: whether Apple has more after it.
package struct HistoryPage: Sendable, Hashable {
    package var hasMore: Bool
    package var paginationToken: String?
    /// A transaction of the page (transaction and refund history): the customer to ask Apple
    /// for the pages after it.
    package var customerTransactionID: String?
}

/// A transaction history whose last page says Apple has more: the customer, and where to go on.
package struct CutHistory: Sendable, Hashable, Codable {
    package var file: String
    package var line: Int
    package var transactionID: String
    package var revision: String

    /// Where `fetch transactions --incomplete` puts the pages after it, in `transactions/`: a
    /// history is complete once this file is there whole.
    package var continuationName: String {
        "history-\(Self.escaped(transactionID))-after-\(Self.escaped(String(revision.prefix(40)))).jsonl"
    }

    /// Letters, digits, `-`, `_` and `.` as they are; anything else as `%XX` (for URLs and file names).
    package static func escaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let safe =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
            out += safe ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        return out
    }
}

/// Reads the JWS string at the cursor: its payload parsed by `parse`, and its signature
/// checked by `verifier` (nil when an outer signature already covers it) with what the
/// payload says about itself.
func readSigned<Fields>(
    _ cursor: inout JSONCursor, verifier: JWSVerifier?, parse: (inout JSONCursor) throws -> Fields,
    claims: (Fields) -> JWSVerifier.Claims
) throws -> Fields {
    let compact = try cursor.stringBytes()
    let payload: [UInt8]
    do { payload = try JWS.payload(of: compact) } catch { throw JSONError(reason: error.description, field: "") }
    let fields = try payload.withUnsafeBytes { bytes in
        var inner = JSONCursor(bytes)
        let fields = try parse(&inner)
        try inner.finish()
        return fields
    }
    do {
        try verifier?.check(compact, claims: claims(fields))
    } catch {
        throw JSONError(reason: error.description, field: "")
    }
    return fields
}
