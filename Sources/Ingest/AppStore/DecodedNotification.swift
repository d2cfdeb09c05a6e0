import Support

/// A notification as decoded, with the other transaction copies its line carried (V1 bodies
/// list every receipt of the subscription).
package struct DecodedNotification: Sendable, Codable {
    package var notification: NotificationRecord
    /// The copy of the transaction it carried (`data.signedTransactionInfo`, or a V1 receipt's
    /// main entry).
    package var transaction: TransactionRecord?
    /// The renewal info it carried (`data.signedRenewalInfo`), if any.
    package var renewal: RenewalRecord?
    package var otherTransactions: [TransactionRecord] = []
}
