import Ingest
import PlayAPI
import Support

/// What `fetch voided` asks Google for, and where it lands in the input layout.
package enum VoidedFetch {
    /// How far back Google lists voided purchases: 30 days.
    package static let kept = TimeSpan.days(30)
    /// The most a page may hold, as Google allows.
    package static let pageSize = 1000

    /// Every page of `voidedpurchases.list` for [since, until), subscriptions and partial
    /// refunds of a quantity included, into `DIR/play/voided/voided-<start>-<end>.jsonl`.
    package static func fetch(
        _ fetch: PagedFetch, data: String, packageName: String, since: Timestamp, until: Timestamp
    ) throws -> (file: String, pages: Int, voids: Int) {
        let file = data + "/play/voided/voided-\(FetchCalls.compact(since))-\(FetchCalls.compact(until)).jsonl"
        if !fetch.dryRun { _ = try FetchFolders.make("play/voided", in: data) }
        // type=1: subscriptions too (their renewals told apart by orderId, as Google asks).
        let query =
            "?startTime=\(since.milliseconds)&endTime=\(until.milliseconds)&type=1&includeQuantityBasedPartialRefund=true"
            + "&maxResults=\(pageSize)"
        let path =
            "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(packageName) + "/purchases/voidedpurchases" + query
        var voids = 0
        let pages = try fetch.fetch(
            into: file, scratch: FetchCalls.scratch(data),
            request: { token in ("GET", path + (token.map { "&token=" + PlayDeveloperAPI.component($0) } ?? ""), []) },
            next: { page in
                let paging = try nextPage(page)
                voids += try voidCount(page)
                return paging
            })
        return (file, pages, voids)
    }

    /// How many voided purchases a page holds.
    static func voidCount(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        var count = 0
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            guard key == "voidedPurchases", !cursor.null() else { return try cursor.skip() }
            try cursor.elements { cursor, _ in
                count += 1
                try cursor.skip()
            }
        }
        return count
    }

    /// A page's `tokenPagination.nextPageToken`: there is more while it is there.
    static func nextPage(_ bytes: UnsafeRawBufferPointer) throws -> (hasMore: Bool, token: String?) {
        var token: String?
        var cursor = JSONCursor(bytes)
        try cursor.members { cursor, key in
            guard key == "tokenPagination", !cursor.null() else { return try cursor.skip() }
            try cursor.members { cursor, key in
                if key == "nextPageToken" {
                    token = try cursor.optionalString()
                } else {
                    try cursor.skip()
                }
            }
        }
        try cursor.finish()
        let next = token?.isEmpty == false ? token : nil
        return (next != nil, next)
    }
}
