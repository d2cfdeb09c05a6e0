import Support

/// A value of one of Apple's growing enumerations that this version does not know: counted by
/// the reader as records name it (`newValues`) and said once each in the run's warnings.
struct NewValue: Sendable, Hashable, Codable {
    package var field: String
    package var value: String

    package init(field: String, value: String) {
        self.field = field
        self.value = value
    }

    /// What the report does with such a value (docs/domain.md, rule 6 and "Apple's later values").
    var consequence: String {
        switch field {
        case "inAppOwnershipType":
            "who paid is not known, so cost served under these transactions is counted apart (unknown_ownership), "
                + "never as paid, shared or leaked"
        case "type": "the product is read as products.csv says, else as one with standing access"
        case "revocationType": "a revocation of a purchase is read as a full refund"
        default: "it is shown as it came and decides nothing"
        }
    }
}

extension TransactionRecord {
    /// The fields of this record whose value this version does not know (none, the usual
    /// case, makes no array: this is asked of every transaction copy kept).
    var newValues: [NewValue] {
        var values: [NewValue] = []
        if let raw = rawOwnership, ownership == nil { values.append(NewValue(field: "inAppOwnershipType", value: raw)) }
        if let raw = rawType, type == nil { values.append(NewValue(field: "type", value: raw)) }
        if let raw = rawRevocationType, revocationType == nil { values.append(NewValue(field: "revocationType", value: raw)) }
        return values
    }
}

extension NotificationRecord {
    /// The fields of this notification whose value this version does not know.
    var newValues: [NewValue] {
        guard let reason = rawConsumptionRequestReason, consumptionRequestReason == nil else { return [] }
        return [NewValue(field: "consumptionRequestReason", value: reason)]
    }
}
