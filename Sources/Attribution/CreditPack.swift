import Ingest
import Ledger
import Support

/// One consumable purchase as a source of credits.
struct CreditPack: Sendable {
    var transaction: Int
    /// Credits granted, in nano-units like a row's quantity: `credits x quantity`, held wide
    /// enough for the largest pack products.csv and Apple's quantity allow (a billion credits
    /// bought ten times is 1e19 nano-credits, past Int64).
    var credits: Int128
    var purchase: Timestamp
    /// Credits are void from the refund on.
    var revokedAt: Timestamp?
}
