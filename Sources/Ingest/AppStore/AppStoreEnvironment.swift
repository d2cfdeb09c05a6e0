import Support

/// `environment`.
package enum AppStoreEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    /// StoreKit testing in Apple's own test vectors.
    case localTesting = "LocalTesting"

    /// V1 bodies say `PROD` and `Sandbox`.
    package init?(v1 text: String) {
        switch text {
        case "PROD", "Production": self = .production
        case "Sandbox": self = .sandbox
        default: return nil
        }
    }
}
