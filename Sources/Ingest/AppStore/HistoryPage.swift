import Support

/// A page of an App Store Server API history response: whether Apple has more after it.
package struct HistoryPage: Sendable, Hashable, Codable {
    package var hasMore: Bool
    package var paginationToken: String?
    /// A transaction of the page (transaction and refund history): the customer to ask Apple
    /// for the pages after it.
    var customerTransactionID: String?
    /// The original transaction ids of the page's transactions, each once: whose history it is.
    package var originals: [String] = []
}

/// The transaction histories of one file that a page says Apple has more of, with no later page
/// of the same customer yet.
///
/// An export holds many customers' histories one after another, each page after page. A page
/// is the same customer's as an open one when it shares an original transaction id with it, or
/// when it directly follows it and one of the two holds no transaction (nothing else tells).
/// Only histories left open are kept, so the state is as large as the cut histories, not the file.
struct OpenHistories {
    private var pages: [(line: Int, page: HistoryPage)?] = []
    /// Where each original transaction id of an open page is in `pages`.
    private var byOriginal: [String: Int] = [:]
    /// The page just read, when it left its history open.
    private var previous: Int?

    mutating func read(_ page: HistoryPage, line: Int) {
        for original in page.originals {
            if let open = byOriginal[original] { close(open) }
        }
        if let previous, pages[previous] != nil, page.originals.isEmpty || pages[previous]?.page.originals.isEmpty == true {
            close(previous)
        }
        previous = nil
        guard page.hasMore else { return }
        previous = pages.count
        for original in page.originals { byOriginal[original] = pages.count }
        pages.append((line, page))
    }

    private mutating func close(_ index: Int) {
        for original in pages[index]?.page.originals ?? [] where byOriginal[original] == index {
            byOriginal[original] = nil
        }
        pages[index] = nil
    }

    /// The pages whose history no later page goes on with, in line order.
    var open: [(line: Int, page: HistoryPage)] { pages.compactMap { $0 } }
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
