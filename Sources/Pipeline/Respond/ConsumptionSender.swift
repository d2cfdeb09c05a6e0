import AppStoreAPI
import Ingest
import Support

/// Where a run's answers go: Apple's App Store Server API, or, in a test, a recorder with the
/// answers a test wants from "Apple".
package protocol ConsumptionSender {
    /// Sends Send Consumption Information for `transactionID`, retrying as Apple allows until
    /// `deadline`; what Apple answered.
    func sendConsumption(transactionID: String, body: [UInt8], deadline: Timestamp) throws -> APIOutcome
}

extension AppStoreServerAPI: ConsumptionSender {}
