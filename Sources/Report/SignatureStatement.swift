import Attribution
import Support

/// How the App Store data's signatures fared, in the words the page uses.
package struct SignatureStatement: Sendable, Hashable {
    package var verificationOff = false
    package var verified = 0
    package var unverifiedDecoded = 0
    package var unverifiedXcode = 0
    package var notChecked = 0
    package var rejected = 0
    /// The trusted roots, as people name them.
    package var roots: [String] = []

    package init() {}

    /// One sentence for the top of the page.
    package var sentence: String {
        if verificationOff {
            return "Signatures were not checked (--no-verify): \(HumanText.count(notChecked)) signed payloads were read as "
                + "they came, so a forged or altered payload would change these figures."
        }
        var text =
            "App Store data verified: \(HumanText.count(verified)) signed payloads checked against "
            + roots.joined(separator: " and ")
        if unverifiedDecoded > 0 {
            text +=
                "; \(HumanText.count(unverifiedDecoded)) lines came unsigned (V1) or already decoded and could not be verified"
        }
        if unverifiedXcode > 0 {
            text += "; \(HumanText.count(unverifiedXcode)) Xcode- or LocalTesting-signed payloads accepted unverified"
        }
        if rejected > 0 { text += "; \(HumanText.count(rejected)) refused (see rejects.csv)" }
        return text + "."
    }

    /// The same in a few words a finance lead reads past (no roots, no options): what the page's
    /// first screen says of the data.
    var shortSentence: String {
        if verificationOff { return "App Store data read without checking its signatures" }
        let unverified = unverifiedDecoded + unverifiedXcode
        var text = "App Store data verified as Apple's (\(HumanText.count(verified)) signed records)"
        if unverified > 0 {
            text += ", \(HumanText.count(unverified)) \(unverified == 1 ? "record" : "records") that could not be verified"
        }
        if rejected > 0 { text += ", \(HumanText.count(rejected)) refused" }
        return text
    }
}
