import Attribution
import Ingest
import Ledger
import Support

/// The answers a report would give every consumption request, worked out in memory with the
/// report's own stages (inputs, ledger, every cost row attributed, figures) as of `asOf`:
/// what `respond` sends is what the report shows.
struct ConsumptionAnswers {
    package var requests: [ConsumptionFigure]
    /// Each request's transaction type, for Apple's rules on the percentage.
    package var types: [String: ProductType]
    package var rejects: RejectTally
    /// Notifications signed after the as-of time, not read (a request among them is not open yet).
    package var signedLater: Int

    package static func compute(_ options: RunOptions, diagnostics: DiagnosticCollector) throws -> ConsumptionAnswers {
        // Run every few minutes: what Apple added is said, cut histories are the report's to name.
        let pipeline = Pipeline(options, diagnostics: DiagnosticCollector())
        // Apple's answers come from the App Store's data alone, as respond's state reads it.
        let loaded = try pipeline.load(readingPlay: false)
        let attributor = pipeline.attributor(loaded)
        var reading = try pipeline.attribute(loaded, with: attributor)
        try pipeline.refuseBeyondLimit(consequence: "Nothing was sent: an answer needs all of its evidence.")
        let requests = pipeline.consumption(loaded, try pipeline.settle(&reading, with: attributor))
        var types: [String: ProductType] = [:]
        for request in requests {
            guard let index = request.transactionIndex, let id = request.transactionID else { continue }
            if let type = loaded.ledger.transactions[index].type { types[id] = type }
        }
        diagnostics.emit(contentsOf: loaded.warnings)
        return ConsumptionAnswers(
            requests: requests, types: types, rejects: pipeline.rejects.tally,
            signedLater: loaded.appStore.input.counts.notificationsSignedAfterAsOf)
    }
}
