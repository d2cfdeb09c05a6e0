import Support

/// How the App Store side of a run is read: its environment, its as-of time, how signatures are
/// checked, and where data that names no environment belongs.
package struct AppStoreOptions: Sendable, Hashable {
    package var environment: AppStoreEnvironment
    package var asOf: Timestamp
    package var signatures: SignaturePolicy
    /// Where data that names no environment belongs (`--unlabeled-environment`); nil: nowhere.
    package var unlabeledEnvironment: AppStoreEnvironment?

    package init(environment: AppStoreEnvironment = .production, asOf: Timestamp, signatures: SignaturePolicy? = nil) {
        self.environment = environment
        self.asOf = asOf
        self.signatures = signatures ?? SignaturePolicy(environment: environment, fallbackTime: asOf)
    }
}
