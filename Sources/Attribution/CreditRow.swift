import Ingest
import Ledger
import Support

/// A cost row paid for with prepaid credits, held until all rows are read: credits are drawn
/// oldest purchase first, in time order, whatever order the files list the rows in.
package struct CreditRow: Sendable, Hashable, Codable {
    var account: Int32
    var t: Timestamp
    var quantityNanos: Int64
    var cost: Money
    var originalCost: Money
    var currency: CurrencyCode
    /// Id in the owning totals' category table.
    var category: Int32
}
