import Support

/// `revocationReason`: why Apple refunded.
package enum RevocationReason: Int, Sendable, Hashable, CaseIterable {
    case other = 0
    case appIssue = 1

    /// As reports write it: `other`, `app_issue`.
    package var reportName: String {
        switch self {
        case .other: "other"
        case .appIssue: "app_issue"
        }
    }
}
