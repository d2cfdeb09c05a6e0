// The values of Apple's growing enumerations this version does not know, as a record reads
// them: counted by the reader and said once each in the run's warnings (docs/domain.md,
// "Apple's later values").

extension TransactionRecord {
    /// The fields of this record whose value this version does not know.
    var newValues: [NewValue] {
        [
            ("inAppOwnershipType", rawOwnership, ownership != nil),
            ("type", rawType, type != nil),
            ("revocationType", rawRevocationType, revocationType != nil),
        ].compactMap { field, raw, known in
            guard let raw, !known else { return nil }
            return NewValue(field: field, value: raw)
        }
    }
}

extension NotificationRecord {
    /// The fields of this notification whose value this version does not know.
    var newValues: [NewValue] {
        guard let reason = rawConsumptionRequestReason, consumptionRequestReason == nil else { return [] }
        return [NewValue(field: "consumptionRequestReason", value: reason)]
    }
}
