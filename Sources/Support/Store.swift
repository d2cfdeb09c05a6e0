/// The store a purchase was made in: every figure and per-row file says which.
package enum Store: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case appStore = "app_store"
    case googlePlay = "google_play"

    /// As people read it.
    package var title: String {
        switch self {
        case .appStore: "App Store"
        case .googlePlay: "Google Play"
        }
    }

    /// The App Store first, as files list the stores.
    package static func < (lhs: Store, rhs: Store) -> Bool { lhs == .appStore && rhs == .googlePlay }
}
