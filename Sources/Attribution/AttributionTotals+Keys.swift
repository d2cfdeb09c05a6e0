import Ingest
import Ledger
import Support

package struct DayKey: Sendable, Hashable, Codable {
    package var day: Int64
    package var category: Int32
    package var costClass: CostClass
}

package struct TransactionAccountKey: Sendable, Hashable, Codable {
    package var account: Int32
    package var transaction: Int32
}
