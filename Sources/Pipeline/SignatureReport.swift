import Ingest
import Report
import Support

/// How a run's signature checks are told: a sentence for the page, a block for run.json.
enum SignatureReport {
    static func statement(_ counts: SignatureCounts, _ options: LedgerLoad.Options) -> SignatureStatement {
        var statement = SignatureStatement()
        statement.verificationOff = !options.verifySignatures
        statement.verified = counts.verified
        statement.unverifiedDecoded = counts.unverifiedDecoded
        statement.unverifiedXcode = counts.unverifiedXcode
        statement.notChecked = counts.notChecked
        statement.rejected = counts.rejected
        statement.roots = options.signaturePolicy.roots.map(rootName)
        return statement
    }

    /// "Apple Root CA - G3", or a named test root with the start of its fingerprint.
    static func rootName(_ der: [UInt8]) -> String {
        if der == AppleRoot.g3 { return "Apple Root CA - G3" }
        let fingerprint = der.withUnsafeBytes { SHA256.digest($0) }
        return "a root named with --trust-root (SHA-256 \(fingerprint.prefix(16))...)"
    }

    static func json(_ counts: SignatureCounts, _ options: LedgerLoad.Options) -> JSONValue {
        let policy = options.signaturePolicy
        return .object([
            ("verification_off", .bool(!options.verifySignatures)),
            ("trusted_roots_sha256", .array(policy.roots.map { root in .string(root.withUnsafeBytes { SHA256.digest($0) }) })),
            ("bundle_id", options.bundleID.map { JSONValue.string($0) } ?? .null),
            ("app_apple_id", options.appAppleID.map { JSONValue.integer($0) } ?? .null),
            ("verified", .integer(Int64(counts.verified))),
            ("unverified_decoded", .integer(Int64(counts.unverifiedDecoded))),
            ("unverified_xcode", .integer(Int64(counts.unverifiedXcode))),
            ("not_checked", .integer(Int64(counts.notChecked))),
            ("rejected", .object(counts.rejectedByCheck.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
        ])
    }
}
