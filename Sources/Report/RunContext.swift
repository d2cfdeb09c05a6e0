import Attribution
import Support

/// What the report says about the run beside its figures: the inputs read and how far the
/// App Store data's signatures were checked (docs/domain.md rule 12).
package struct RunContext: Sendable {
    package var inputs: [InputFileRecord]
    package var signatures: SignatureStatement
    /// How much of each input folder was counted.
    package var completeness: InputCompleteness
    /// App Store lines refused in a run that still passed: the page opens with them.
    package var appStoreRejects: AppStoreRefusal
    /// What the App Store files held and what was left out (`AppStoreCounts.lines`).
    package var appStoreCounts: [CountLine]

    package init(
        inputs: [InputFileRecord], signatures: SignatureStatement, completeness: InputCompleteness = InputCompleteness(),
        appStoreRejects: AppStoreRefusal = AppStoreRefusal(), appStoreCounts: [CountLine] = []
    ) {
        self.inputs = inputs
        self.signatures = signatures
        self.completeness = completeness
        self.appStoreRejects = appStoreRejects
        self.appStoreCounts = appStoreCounts
    }
}
