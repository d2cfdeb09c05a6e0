import AppStoreAPI
import Ingest
import PlayAPI
import Support

/// What `fetch orders` asks Google for (`orders.batchget`), and where it lands.
package enum OrdersFetch {
    /// Order ids a call asks for: Google takes up to 1,000, but they travel in the URL, and 100
    /// keep it near 4 KB, under any front end's limit.
    package static let batchSize = 100

    /// What a fetch of orders did.
    package struct Outcome: Sendable {
        /// Nil when no order came (nothing is written then).
        package var file: String?
        package var orders = 0
        package var calls = 0
        /// Ids Google does not know for this app (a batch naming one fails whole: it is split
        /// until the unknown ones stand alone).
        package var unknown: [String] = []
    }

    /// The order ids `input` names (its voids, notifications and purchases) that it holds no order for, sorted.
    package static func missing(in input: PlayInput) -> [String] {
        let fetched = Set(input.orders.map(\.orderID))
        var named = Set<String>()
        for void in input.voided { if let id = void.orderID { named.insert(id) } }
        for notification in input.notifications { if let id = notification.orderID { named.insert(id) } }
        for purchase in input.purchases { named.formUnion(purchase.orderIDs) }
        return named.subtracting(fetched).sorted { $0.bytesPrecede($1) }
    }

    /// Every order of `ids` into `DIR/play/orders/orders-<now>.jsonl`, one batchget response a
    /// line, written when the last batch is in; a call that gets no answer leaves nothing.
    package static func fetch(
        _ api: PlayDeveloperAPI, data: String, packageName: String, ids: [String], now: Timestamp, dryRun: Bool,
        say: (String) -> Void
    ) throws -> Outcome {
        let name = "orders-\(FetchCalls.compact(now)).jsonl"
        let destination = data + "/play/orders/" + name
        let prefix = "/androidpublisher/v3/applications/" + PlayDeveloperAPI.component(packageName) + "/orders:batchGet"
        func path(_ batch: ArraySlice<String>) -> String {
            prefix + "?" + batch.map { "orderIds=" + PlayDeveloperAPI.component($0) }.joined(separator: "&")
        }
        var batches: [ArraySlice<String>] = stride(from: 0, to: ids.count, by: batchSize).map {
            ids[$0..<min($0 + batchSize, ids.count)]
        }
        if dryRun {
            if let first = batches.first {
                let more = batches.count > 1 ? "and \(batches.count - 1) more calls of up to \(batchSize) ids each, " : ""
                say("would send GET \(api.baseURL)\(path(first))\n  \(more)into \(destination)")
            }
            return Outcome()
        }
        var outcome = Outcome()
        guard !batches.isEmpty else { return outcome }
        return try AnswerFile.whole(data: data, folder: "play/orders", name: name) { file in
            while let batch = batches.first {
                batches.removeFirst()
                outcome.calls += 1
                switch try api.call("GET", path(batch), body: [], deadline: Clock.now().adding(.hours(1))) {
                case .accepted(let response):
                    let returned = try orderIDs(in: response.body, api: api)
                    guard returned.allSatisfy(Set(batch).contains) else {
                        throw FetchError(
                            message: "Google's answer to \(batch.count) order ids holds orders not asked for: not kept")
                    }
                    guard !returned.isEmpty else { continue }
                    try file.append(response.body, from: api)
                    outcome.orders += returned.count
                case .refused(let status, _, _) where status == 404 || status == 400:
                    // One unknown id fails the whole batch: halves until it stands alone.
                    guard batch.count > 1 else {
                        outcome.unknown.append(batch[batch.startIndex])
                        continue
                    }
                    let middle = batch.startIndex + batch.count / 2
                    batches.insert(contentsOf: [batch[..<middle], batch[middle...]], at: 0)
                case let other:
                    // The ids are left out of what is said: a hundred of them make no message.
                    throw FetchError.stopping(other, call: "GET " + prefix, api: api)
                }
            }
            outcome.file = try file.commit()
            return outcome
        }
    }

    /// The `orderId` of each order of a batchget response; a body that is not one is no answer.
    static func orderIDs(in body: [UInt8], api: PlayDeveloperAPI) throws -> [String] {
        var ids: [String] = []
        do {
            try body.withUnsafeBytes { raw in
                var cursor = JSONCursor(raw)
                try cursor.members { cursor, key in
                    guard key == "orders", !cursor.null() else { return try cursor.skip() }
                    try cursor.elements { cursor, _ in
                        try cursor.members { cursor, key in
                            if key == "orderId" {
                                if let id = try cursor.optionalString() { ids.append(id) }
                            } else {
                                try cursor.skip()
                            }
                        }
                    }
                }
                try cursor.finish()
            }
        } catch {
            throw FetchError(message: "Google's answer to orders:batchGet is not the JSON it sends: \(api.shown("\(error)"))")
        }
        return ids
    }
}
