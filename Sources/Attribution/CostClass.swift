import Ingest
import Ledger
import Support

/// The one class every cost row gets (docs/domain.md rule 6).
///
/// The raw values are the order of the columns the classes first had in `summary.csv`;
/// `billingGrace` and `unknownOwnership` came later, and are further on there. `ruleOrder` is the order of rule 6.
package enum CostClass: Int, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case paid
    case familyShared
    case premature
    case afterRefund
    case afterFamilyExit
    case afterExpiry
    case unentitled
    case unlinked
    /// Served in a billing grace period that was never paid (docs/domain.md rule 13).
    case billingGrace
    /// Served under a transaction whose `inAppOwnershipType` is a value Apple added after this
    /// version: who paid is not known, so it is neither paid nor shared nor a leak, only counted.
    case unknownOwnership

    /// Rule 6's order, billing grace after family_shared: how the page lists the classes.
    package static let ruleOrder: [CostClass] = [
        .paid, .familyShared, .billingGrace, .premature, .afterRefund, .afterFamilyExit, .afterExpiry, .unentitled, .unlinked,
        .unknownOwnership,
    ]

    /// The classes `summary.csv` had before billing grace, in their column order (the later
    /// ones are columns further on).
    package static let firstColumns: [CostClass] = allCases.filter { $0 != .billingGrace && $0 != .unknownOwnership }

    package static func < (lhs: CostClass, rhs: CostClass) -> Bool { lhs.rawValue < rhs.rawValue }

    /// As reports write it.
    package var reportName: String {
        switch self {
        case .paid: "paid"
        case .familyShared: "family_shared"
        case .premature: "premature"
        case .afterRefund: "after_refund"
        case .afterFamilyExit: "after_family_exit"
        case .afterExpiry: "after_expiry"
        case .unentitled: "unentitled"
        case .unlinked: "unlinked"
        case .billingGrace: "billing_grace"
        case .unknownOwnership: "unknown_ownership"
        }
    }

    /// Cost served after access ended that the server should not have served (rule 8).
    package var isLeak: Bool { self == .afterRefund || self == .afterFamilyExit }

    /// Cost after access ended, leaked or lapsed: split by notice and grace in leaks.csv.
    var isAfterEnd: Bool { self == .afterRefund || self == .afterFamilyExit || self == .afterExpiry }

    /// Cost that an entitlement justified (a billing grace, paid or not, is one).
    var isEntitled: Bool { self == .paid || self == .familyShared || self == .billingGrace }
}

/// When a post-revocation cost row happened relative to the notice (rule 8).
package enum LeakPhase: Int, Sendable, Hashable, CaseIterable {
    /// Before the server could know: not its fault.
    case beforeNotice
    /// Inside the grace period after the notice.
    case withinGrace
    /// Later than notice + grace: the server should have cut it off.
    case beyondGrace
}
