import Support

// Apple's enumerations grow every year: records keep the raw string, and these typed views
// return nil for a value this version does not know, instead of failing to decode.

/// `inAppOwnershipType`.
package enum Ownership: String, Sendable, Hashable, CaseIterable, Codable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"

    /// As reports write it: `purchased`, `family_shared`.
    package var reportName: String {
        switch self {
        case .purchased: "purchased"
        case .familyShared: "family_shared"
        }
    }
}
