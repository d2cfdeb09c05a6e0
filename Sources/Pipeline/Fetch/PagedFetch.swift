import AppStoreAPI
import Ingest
import Support

/// Why a fetch stopped.
package struct FetchError: DiagnosticError {
    package var message: String
    /// 401: nothing else can work either; the run stops.
    package var unauthorized = false

    package var diagnostic: Diagnostic { Diagnostic(message) }
}

extension FetchError {
    /// Why `outcome`, anything but an acceptance, stops the fetch of `call` (`GET /path`).
    package static func stopping(_ outcome: APIOutcome, call: String, api: any ListingAPI) -> FetchError {
        switch outcome {
        case .accepted: FetchError(message: "\(call) was accepted")
        case .refused(let status, let code, let message):
            FetchError(
                message: "\(api.owner) refused \(call) (HTTP \(status)\(code.map { ", error \($0)" } ?? ""))"
                    + (message.map { ": \($0)" } ?? "") + (api.refusalAdvice(status: status).map { " (\($0))" } ?? ""))
        case .unauthorized(let status, _, let message):
            FetchError(message: api.unauthorized(status: status, message: message), unauthorized: true)
        case .failed(let reason, _, _): FetchError(message: "\(call) got no answer: \(reason)")
        }
    }
}

/// Pages of a store API's listing, fetched whole or not at all: each page is written as the
/// store returned it, one a line, to a temporary file that is renamed into place when the
/// last page is in, so an input folder never holds a cut file.
package struct PagedFetch {
    package var api: any ListingAPI
    /// Longest a listing may run (`--max-pages`): a listing past it is an error, never a hang.
    package var maxPages: Int
    package var dryRun = false
    package var say: (String) -> Void = { _ in }

    package init(api: any ListingAPI, maxPages: Int) {
        self.api = api
        self.maxPages = maxPages
    }

    /// Fetches every page of one listing into `destination`.
    ///
    /// `request(token)` names the call for the page after `token` (nil: the first), `next(page)`
    /// reads a page's `hasMore` and token. Returns the pages written; nothing is at
    /// `destination` unless every page came. With `resumable`, a listing cut short keeps its
    /// pages and the next page's token in `scratch`, and the next run goes on from there.
    package func fetch(
        into destination: String, scratch: String, resumable: Bool = false, startingAfter first: String? = nil,
        request: (String?) -> (method: String, path: String, body: [UInt8]),
        next: (UnsafeRawBufferPointer) throws -> (hasMore: Bool, token: String?)
    ) throws -> Int {
        let temporary = scratch + "/" + (destination.split(separator: "/").last.map(String.init) ?? "fetch") + ".partial"
        let resumeAt = temporary + ".next"
        var token = first
        var pages = 0
        // Every token of the listing so far: a store never hands out one twice.
        var seen = Set<String>()
        let resuming = resumable && FileSystem.kind(temporary) == .regularFile
        if resuming, let saved = try? FileDescriptor.readAll(resumeAt) {
            // A cut listing: its pages so far stand, the next one is asked for.
            token = String(decoding: saved, as: UTF8.self)
        }
        if dryRun {
            let call = request(token)
            say(
                "would send \(call.method) \(api.baseURL)\(call.path)"
                    + (call.body.isEmpty ? "" : "  body \(String(decoding: call.body, as: UTF8.self))")
                    + "\n  then each next page until the last, into \(destination)")
            return 0
        }
        if let token { seen.insert(token) }
        // The scratch folder is the data folder's own, never a link to elsewhere.
        if let slash = scratch.lastIndex(of: "/") {
            _ = try FetchFolders.make(String(scratch[scratch.index(after: slash)...]), in: String(scratch[..<slash]))
        } else {
            _ = try FetchFolders.make(scratch, in: ".")
        }
        let file = try resuming && token != first ? FileDescriptor.openForAppending(temporary) : FileDescriptor.create(temporary)
        do {
            while true {
                let call = request(token)
                let deadline = Clock.now().adding(.hours(1))
                let outcome = try api.page(call.method, call.path, body: call.body, deadline: deadline)
                var body: [UInt8]
                guard case .accepted(let response) = outcome else {
                    throw FetchError.stopping(outcome, call: "\(call.method) \(call.path)", api: api)
                }
                body = response.body
                // One page a line: a line feed in the JSON can only be white space between tokens.
                for index in body.indices where body[index] == 0x0A || body[index] == 0x0D { body[index] = 0x20 }
                let paging: (hasMore: Bool, token: String?)
                do {
                    paging = try body.withUnsafeBytes(next)
                } catch {
                    throw FetchError(
                        message: "page \(pages + 1) of \(call.path) is not the JSON \(api.owner) sends: \(api.shown("\(error)"))")
                }
                guard !api.holdsSecret(body) else {
                    throw FetchError(
                        message: "page \(pages + 1) of \(call.path) holds this run's credentials, which \(api.owner) never "
                            + "sends back: not kept")
                }
                try (body + [0x0A]).withUnsafeBytes { try file.write($0) }
                pages += 1
                if resumable, let following = paging.token, paging.hasMore {
                    let marker = try FileDescriptor.create(resumeAt)
                    try Array(following.utf8).withUnsafeBytes { try marker.write($0) }
                }
                guard paging.hasMore else { break }
                guard let following = paging.token, !following.isEmpty else {
                    throw FetchError(message: "page \(pages) says hasMore but gives no token for the next page")
                }
                guard !api.holdsSecret(Array(following.utf8)) else {
                    throw FetchError(message: "page \(pages)'s next-page token holds this run's credentials: stopped")
                }
                // A token seen before in this listing means a loop (A, A or A, B, A, ...), however long.
                guard seen.insert(following).inserted else {
                    throw FetchError(
                        message: "page \(pages)'s next-page token \(api.shown(following)) came before in this listing: "
                            + "stopped (a loop)")
                }
                guard pages < maxPages else {
                    throw FetchError(message: "more than --max-pages \(maxPages) pages: stopped")
                }
                token = following
            }
            try file.synchronize()
            try FileSystem.rename(temporary, to: destination)
            FileSystem.remove(resumeAt)
            return pages
        } catch {
            if !resumable || pages == 0 && token == first {
                FileSystem.remove(temporary)
                FileSystem.remove(resumeAt)
            }
            if let failure = error as? FetchError {
                var said = failure
                said.message += "; \(pages) page\(pages == 1 ? "" : "s") had come, nothing was written to \(destination)"
                if resumable && (pages > 0 || token != first) { said.message += " (a rerun goes on from the next page)" }
                throw said
            }
            throw error
        }
    }
}

/// The paging members of a page: `hasMore`, and `paginationToken` or `revision`.
func pageInfo(_ bytes: UnsafeRawBufferPointer) throws -> (hasMore: Bool, token: String?) {
    var hasMore = false
    var token: String?
    var cursor = JSONCursor(bytes)
    try cursor.members { cursor, key in
        if key == "hasMore" {
            hasMore = try cursor.bool()
        } else if key == "paginationToken" || key == "revision" {
            // A string as Apple sends it; a number, as some exports write it, is taken as its digits.
            if cursor.null() {
                token = nil
            } else if cursor.isString() {
                token = try cursor.string()
            } else {
                token = String(try cursor.integer())
            }
        } else {
            try cursor.skip()
        }
    }
    try cursor.finish()
    return (hasMore, token)
}
