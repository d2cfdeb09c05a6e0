import Ingest
import Support

/// How a FAMILY_SHARED transaction was tied to the purchase that paid for it (docs/contract.md).
package enum FamilyLinkMethod: String, Sendable, Hashable, CaseIterable {
    /// A PURCHASED refund of the same product within an hour of the member's revocation.
    case revocationMatch = "revocation_match"
    /// A PURCHASED transaction of the same product bought within the two hours before the
    /// member's `purchaseDate` (same `expiresDate` for a subscription).
    case purchaseMatch = "purchase_match"
    /// More than one candidate: left unlinked rather than guessed.
    case ambiguous
    case none

    package var confidence: String {
        switch self {
        case .revocationMatch: "high"
        case .purchaseMatch: "medium"
        case .ambiguous, .none: ""
        }
    }
}

/// A member's transaction and the purchase it was linked to, with the evidence used.
package struct FamilyLink: Sendable, Hashable {
    package var member: Int
    package var purchaser: Int?
    package var method: FamilyLinkMethod
}
