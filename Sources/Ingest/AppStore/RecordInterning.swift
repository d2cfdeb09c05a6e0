import Support

// Product ids, tokens and the like repeat in every record of a month: a record kept
// holds each through `StringInterner`, one copy of each value for the run.

extension TransactionRecord {
    /// This record with its repeating strings held once in `strings`.
    func interned(_ strings: inout StringInterner) -> TransactionRecord {
        var kept = self
        // The raw texts Apple documents a few values of take a byte each (`RecordTexts`).
        kept.productID = strings(kept.productID)
        kept.appAccountToken = strings(kept.appAccountToken)
        // Every renewal names its subscription's first transaction: one string for all of them
        // and for that transaction's own id. (A first purchase's original id is its own id,
        // shared as the input keeps it; Apple's ids of 16 digits are packed, with no memory of
        // their own to share.)
        if kept.type == .autoRenewable || kept.packedOriginalTransactionID != kept.packedTransactionID {
            kept.packedOriginalTransactionID = kept.packedOriginalTransactionID.interned(&strings)
            if kept.packedOriginalTransactionID == kept.packedTransactionID {
                kept.packedTransactionID = kept.packedOriginalTransactionID
            }
        }
        return kept
    }
}

extension NotificationRecord {
    /// This notification with its repeating strings held once in `strings`.
    func interned(_ strings: inout StringInterner) -> NotificationRecord {
        var kept = self
        kept.rawType = strings(kept.rawType)
        kept.subtype = strings(kept.subtype)
        kept.rawConsumptionRequestReason = strings(kept.rawConsumptionRequestReason)
        if let productID = kept.transaction?.productID { kept.transaction?.productID = strings(productID) }
        return kept
    }
}

extension RenewalRecord {
    /// This renewal info with its repeating strings held once in `strings`.
    func interned(_ strings: inout StringInterner) -> RenewalRecord {
        var kept = self
        kept.productID = strings(kept.productID)
        return kept
    }
}
