import Attribution
import Ingest
import Support

/// Apple's rules for a Send Consumption Information body, checked before anything is sent.
enum ConsumptionRules {
    /// Why no answer to `request` is of use any more, or nil while Apple has not decided.
    ///
    /// The data holds Apple's decision when it holds a REFUND, REFUND_DECLINED or REVOKE of the
    /// request's transaction signed after the request (or the transaction revoked since): the
    /// answer is there to inform a decision, and one made already is not made again. Both ways
    /// of working out the answers (respond's state, a reading of everything) give the figure
    /// this reads, so both skip alike, a first answer or one recorded to be sent again.
    package static func decided(_ request: ConsumptionFigure) -> String? {
        switch request.outcome {
        case .pending: nil
        case .granted: "Apple already granted the refund" + (request.outcomeAt.map { " (\($0))" } ?? "")
        case .declined: "Apple already declined the refund" + (request.outcomeAt.map { " (\($0))" } ?? "")
        }
    }

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
