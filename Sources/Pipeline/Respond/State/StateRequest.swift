import Ingest
import Support

/// A refund request the state keeps until the journal answers it for good: the file and the
/// place in the items of its line, and when it was signed.
struct StateRequest: Sendable, Codable, Hashable {
    var uuid: String
    var transactionID: String?
    var signedDate: Timestamp
    var item: Int
    /// The number of the file its line is in.
    var file: Int
}
