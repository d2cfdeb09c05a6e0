import Attribution
import Ingest
import Ledger
import Support

/// The answers a report would give every consumption request, worked out in memory with the
/// report's own stages (inputs, ledger, every cost row attributed, figures) as of `asOf`:
/// what `respond` sends is what the report shows.
package struct ConsumptionAnswers {
    package var requests: [ConsumptionFigure]
    /// Each request's transaction type, for Apple's rules on the percentage.
    package var types: [String: ProductType]
    package var rejects: RejectTally
    package var warnings: [String]
    /// Notifications signed after the as-of time, not read (a request among them is not open yet).
    package var signedLater: Int

    package static func compute(_ options: RunOptions) throws -> ConsumptionAnswers {
        let rejects = RejectLog()
        let loaded = try LedgerLoad(
            data: options.data, options: options.appStore, rejects: rejects, verifiedFiles: options.verifiedFilesRecord)
        var attributor = ReportAssembly.attributor(loaded, options)
        let reading = try ParallelCostReading.run(
            files: loaded.layout.costFiles, root: options.data, mapping: options.costColumns, template: attributor,
            threads: options.threads)
        for reject in reading.headerRejects + reading.rowRejects { try rejects.record(reject) }
        let tally = rejects.tally
        if RejectLimitError.exceeds(tally, options.maxRejects) {
            throw RejectLimitError(
                tally, maxRejects: options.maxRejects, consequence: "Nothing was sent: an answer needs all of its evidence.")
        }
        var totals = reading.totals
        let draws = try attributor.settle(&totals)
        // Only the requests' figures: the rest of a report is not needed to answer them.
        let requests = ConsumptionFigure.all(
            ledger: loaded.ledger, totals: totals, credits: attributor.credits, draws: draws, evidence: loaded.evidence,
            window: options.window, policy: options.consumptionPolicy)
        var types: [String: ProductType] = [:]
        for request in requests {
            guard let index = request.transactionIndex, let id = request.transactionID else { continue }
            if let type = loaded.ledger.transactions[index].type { types[id] = type }
        }
        return ConsumptionAnswers(
            requests: requests, types: types, rejects: tally, warnings: loaded.warnings,
            signedLater: loaded.appStore.input.counts.notificationsSignedAfterAsOf)
    }
}

/// Apple's rules for a Send Consumption Information body, checked before anything is sent.
package enum ConsumptionRules {
    /// Why `request`'s answer must not be sent, or nil when it may.
    package static func refusal(_ request: ConsumptionFigure, type: ProductType?) -> String? {
        guard request.transactionID != nil else { return "the request names no transaction" }
        guard request.consented else { return "no consent" }
        if request.delivery != .delivered, let share = request.consumptionPercentage, share != 0 {
            return "deliveryStatus \(request.delivery.rawValue) needs consumptionPercentage 0"
        }
        if type == .autoRenewable, request.consumptionPercentage != nil {
            return "an auto-renewable subscription takes no consumptionPercentage"
        }
        if request.preference == .grantProrated, type != .autoRenewable, (request.consumptionPercentage ?? 0) <= 0 {
            return "GRANT_PRORATED needs a consumptionPercentage above 0"
        }
        return nil
    }
}
