/// What a person does about the most common reason a run refused its input: the one sentence
/// every command prints beside the count, so the fix is named where the failure is.
package enum RejectAdvice {
    /// The fix for `reason`, when one is known.
    package static func fix(for reason: String) -> String? {
        if reason.contains("does not reach a trusted root") {
            return "Apple's data verifies against Apple Root CA - G3, built in; test data needs its root: --trust-root FILE"
        }
        if reason.contains("--cost-column") || reason.hasPrefix("no '") {
            return
                "map the column: --cost-column NAME=HEADER for every file, or --cost-column 'GLOB:NAME=HEADER' for the files matching GLOB"
        }
        if reason.contains("bundleId") || reason.contains("appAppleId") {
            return "the data belongs to another app, or --bundle-id / --app-apple-id name the wrong one"
        }
        if reason.contains("UTF-16") { return "save the file as UTF-8" }
        if reason.contains("signature") || reason.contains("JWS") {
            return "store Apple's payloads exactly as received; a payload changed after Apple signed it no longer verifies"
        }
        return nil
    }

    /// `1,985 rows: <reason>. <fix>.`: the most common reason and what to do about it.
    package static func sentence(_ tally: RejectTally, in folders: Set<String>? = nil) -> String? {
        guard let (reason, rows) = tally.dominantReason(in: folders) else { return nil }
        var text = "\(HumanText.count(rows)) \(rows == 1 ? "row" : "rows"): \(reason)"
        if let fix = fix(for: reason) { text += ". What to do: \(fix)" }
        return text + "."
    }
}
