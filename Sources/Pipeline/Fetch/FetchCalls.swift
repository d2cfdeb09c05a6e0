import AppStoreAPI
import Ingest
import Support

/// What `fetch` asks Apple for, and where each listing lands in the input layout.
package enum FetchCalls {
    /// How far back Apple keeps notification history: 180 days in Production, 30 in Sandbox.
    package static func historyKept(sandbox: Bool) -> TimeSpan { .days(sandbox ? 30 : 180) }

    /// Get Notification History for [since, until), every page, into
    /// `DIR/notifications/history-<start>-<end>.jsonl`; returns the file and its pages.
    package static func notifications(
        _ fetch: PagedFetch, data: String, since: Timestamp, until: Timestamp, onlyFailures: Bool
    ) throws -> (file: String, pages: Int) {
        var members: [(String, JSONValue)] = [
            ("startDate", .integer(since.milliseconds)), ("endDate", .integer(until.milliseconds)),
        ]
        if onlyFailures { members.append(("onlyFailures", .bool(true))) }
        let body = Array(JSONValue.object(members).compact.utf8)
        let file = data + "/notifications/history-\(compact(since))-\(compact(until)).jsonl"
        if !fetch.dryRun { _ = try FetchFolders.make("notifications", in: data) }
        let pages = try fetch.fetch(
            into: file, scratch: scratch(data),
            request: { token in
                (
                    "POST",
                    "/inApps/v1/notifications/history"
                        + (token.map { "?paginationToken=" + AppStoreServerAPI.pathComponent($0) } ?? ""), body
                )
            }, next: pageInfo)
        return (file, pages)
    }

    /// Get Transaction History (and with `refunds`, Get Refund History) of each customer.
    ///
    /// Into `DIR/transactions/history-<id>.jsonl` and `refunds-<id>.jsonl`. A customer whose
    /// file is there is complete and skipped, and one cut short goes on from its next page: a
    /// rerun continues where a cut run stopped.
    package static func transactions(
        _ fetch: PagedFetch, data: String, ids: [String], refunds: Bool, progress: (FetchProgress) -> Void
    ) throws -> FetchProgress {
        if !fetch.dryRun { _ = try FetchFolders.make("transactions", in: data) }
        var state = FetchProgress(customers: ids.count)
        let started = Clock.monotonicSeconds()
        for id in ids {
            var listings: [(String, String)] = [("history", "/inApps/v2/history/")]
            if refunds { listings.append(("refunds", "/inApps/v2/refund/lookup/")) }
            for (name, prefix) in listings {
                let file = data + "/transactions/\(name)-\(AppStoreServerAPI.pathComponent(id)).jsonl"
                guard FileSystem.kind(file) == .missing else {
                    state.skipped += 1
                    continue
                }
                do {
                    state.calls += try fetch.fetch(
                        into: file, scratch: scratch(data), resumable: true,
                        request: byRevision(prefix + AppStoreServerAPI.pathComponent(id)), next: pageInfo)
                    state.files += 1
                } catch let error as FetchError where !error.unauthorized {
                    // One customer's failure is reported; the others go on.
                    state.failures.append("\(id): \(error.message)")
                }
            }
            state.done += 1
            state.seconds = Clock.monotonicSeconds() - started
            progress(state)
        }
        return state
    }

    /// A GET of `path`, its pages after the first asked for by `?revision=` (Get Transaction
    /// History and Get Refund History page the same way).
    private static func byRevision(_ path: String) -> (String?) -> (method: String, path: String, body: [UInt8]) {
        { revision in ("GET", path + (revision.map { "?revision=" + AppStoreServerAPI.pathComponent($0) } ?? ""), []) }
    }

    /// The pages after every cut transaction history of the data (`--incomplete`), each into
    /// `DIR/transactions/` under the name the reader then takes for its continuation.
    package static func continuations(
        _ fetch: PagedFetch, data: String, cut: [CutHistory], progress: (FetchProgress) -> Void
    ) throws -> FetchProgress {
        var state = FetchProgress(customers: cut.count)
        let started = Clock.monotonicSeconds()
        for history in cut {
            let file = data + "/transactions/" + history.continuationName
            do {
                state.calls += try fetch.fetch(
                    into: file, scratch: scratch(data), resumable: true, startingAfter: history.revision,
                    request: byRevision("/inApps/v2/history/" + AppStoreServerAPI.pathComponent(history.transactionID)),
                    next: pageInfo)
                state.files += 1
            } catch let error as FetchError where !error.unauthorized {
                state.failures.append("\(history.file):\(history.line): \(error.message)")
            }
            state.done += 1
            state.seconds = Clock.monotonicSeconds() - started
            progress(state)
        }
        return state
    }

    /// The cut transaction histories of `data`, read without signature checks: only which
    /// customer and which revision are needed, not what the pages say.
    package static func cutHistories(data: String, sandbox: Bool) throws -> [CutHistory] {
        let layout = try InputLayout(root: data)
        let environment: AppStoreEnvironment = sandbox ? .sandbox : .production
        let options = AppStoreOptions(
            environment: environment, asOf: .latestAccepted, signatures: SignaturePolicy(verify: false, environment: environment))
        return try AppStoreLoad(layout: layout, options: options, rejects: RejectLog()).input.counts.cutHistories
    }

    /// Where listings are put together before they are renamed into place: beside the input
    /// folders, so a cut one is never read as input.
    static func scratch(_ data: String) -> String { data + "/" + scratchName }
    static let scratchName = ".refund-cost-fetch"

    /// `20261001T000000Z`: a time for a file name.
    static func compact(_ time: Timestamp) -> String {
        let text = time.description  // 2026-10-01T00:00:00.000Z
        return text.prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
    }
}

/// How far `fetch transactions` got.
package struct FetchProgress: Sendable {
    package var customers: Int
    package var done = 0
    package var calls = 0
    package var files = 0
    package var skipped = 0
    package var failures: [String] = []
    package var seconds = 0.0

    package var line: String {
        let rate = seconds > 0 ? Double(calls) / seconds : 0
        let left = done > 0 ? seconds / Double(done) * Double(customers - done) : 0
        let tenths = Int((rate * 10).rounded())
        return
            "customers \(done) of \(customers), \(calls) calls, \(tenths / 10).\(tenths % 10) calls/s, about \(Int(left)) s left"
    }
}
