import Ingest
import Support

/// A transaction as the ledger sees it as of the run's as-of time.
package struct LedgerTransaction: Sendable, Hashable {
    /// The copy with the latest `signedDate` not after the as-of time.
    @inlinable package var record: TransactionRecord {
        _read { yield box.record }
        _modify {
            var record = box.record
            yield &record
            box = RecordBox(record)
        }
    }
    // The stored fields are in this order so that the small ones fill what the larger ones'
    // alignment leaves: 88 bytes a transaction instead of 120, for every transaction of the
    // ledger (`LedgerTransactionLayoutTests`).

    /// Where the record lives, the same box ingestion kept it in: ledger transactions are copied
    /// often (sorted, indexed, handed to figures), and a copy then takes one reference instead of
    /// a dozen strings.
    package private(set) var box: RecordBox
    /// When standing access ends, if it does (nil: forever).
    package var end: AccessEnd?
    /// The billing grace period after its `expiresDate`, when a renewal failed and Apple kept
    /// the access while it retried the payment (docs/domain.md rule 13).
    package var grace: BillingGrace?
    /// Who holds it (PURCHASED when Apple says nothing); nil for an `inAppOwnershipType` this
    /// version does not know: such a transaction is never read as paid, shared or leaking.
    package var ownership: Ownership?
    /// The product type from the transaction, else from `products.csv`.
    package var type: ProductType?
    /// Standing access starts at `purchaseDate`; consumables grant none.
    package var grantsAccess: Bool
    /// `signedDate`s of `REFUND_REVERSED` notifications for it.
    package var reversals: [Timestamp] = []
    /// `account`, -1 for none.
    private var accountPlace: Int32
    /// `copies`.
    private var copyCount: Int32

    /// Index into `Ledger.accounts`, when an account holds it.
    package var account: Int? {
        get { accountPlace < 0 ? nil : Int(accountPlace) }
        set { accountPlace = newValue.map { Int32($0) } ?? -1 }
    }
    /// How many copies of it were read.
    package var copies: Int {
        get { Int(copyCount) }
        set { copyCount = Int32(newValue) }
    }

    package init(
        box: RecordBox, ownership: Ownership?, type: ProductType?, account: Int?, grantsAccess: Bool,
        end: AccessEnd?, reversals: [Timestamp] = [], copies: Int = 1, grace: BillingGrace? = nil
    ) {
        self.box = box
        self.end = end
        self.grace = grace
        self.ownership = ownership
        self.type = type
        self.grantsAccess = grantsAccess
        self.reversals = reversals
        self.accountPlace = account.map { Int32($0) } ?? -1
        self.copyCount = Int32(copies)
    }

    // The fields read on every pass over the ledger, read straight from the box: going through
    // `record` copies the whole record (a dozen strings, each a retain on a cold cache line).
    @inlinable package var id: String { box.record.transactionID }
    @inlinable package var productID: String { box.record.productID }
    @inlinable package var originalTransactionID: String { box.record.originalTransactionID }
    @inlinable package var store: Store { box.record.store }
    package var grantStart: Timestamp { box.record.purchaseDate }
    /// When the standing access ends: at a billing grace's start (the grace is its own state),
    /// else at the end of the access.
    var grantEnd: Timestamp? { grace?.start ?? end?.at }

    /// True when the transaction grants access at `t`.
    package func grants(at t: Timestamp) -> Bool {
        grantsAccess && grantStart <= t && (grantEnd.map { t < $0 } ?? true)
    }
}
