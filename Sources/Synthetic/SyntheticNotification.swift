import Ingest

/// One notification the generator will write, with the transaction copy it carries.
struct SyntheticNotification {
    var type: NotificationType
    var subtype: NotificationSubtype?
    var signed: Int64
    var transaction: SyntheticTransaction
    var consumptionReason: ConsumptionReason?
    var uuid: String
    var environment = "Production"
    /// The renewal info the notification carries, for subscription events.
    var renewal: SyntheticRenewal?
}
