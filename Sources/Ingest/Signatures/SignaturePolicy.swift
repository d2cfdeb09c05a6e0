import Support

/// What a run trusts (docs/domain.md rule 12): the roots a chain must reach, whether to check at
/// all, and which app the data must belong to.
package struct SignaturePolicy: Sendable, Hashable, Codable {
    /// Trusted roots as DER: Apple Root CA - G3 always, plus `--trust-root` files.
    package var roots: [[UInt8]]
    /// False with `--no-verify`: every JWS is read without a check and counted as such.
    package var verify: Bool
    /// `--bundle-id`, `--app-apple-id`: data of another app is refused.
    package var bundleID: String?
    package var appAppleID: Int64?
    /// The run's environment: Xcode-signed data (one certificate) is accepted unverified only
    /// in the Xcode environment, as Apple's library does.
    package var environment: AppStoreEnvironment
    /// When certificates must be valid for a payload without `signedDate`: the run's as-of time.
    package var fallbackTime: Timestamp

    package init(
        roots: [[UInt8]] = [AppleRoot.g3], verify: Bool = true, bundleID: String? = nil, appAppleID: Int64? = nil,
        environment: AppStoreEnvironment = .production, fallbackTime: Timestamp = .latestAccepted
    ) {
        self.roots = roots
        self.verify = verify
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
        self.fallbackTime = fallbackTime
    }

    /// A key for "verified with these settings": the roots and the app checks, for the record of
    /// files already verified.
    package var fingerprint: String {
        var text = roots.map { root in root.withUnsafeBytes { SHA256.digest($0) } }.sorted().joined(separator: ",")
        text += "|" + (bundleID ?? "") + "|" + (appAppleID.map { String($0) } ?? "") + "|" + environment.rawValue
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { SHA256.digest(UnsafeRawBufferPointer($0)) }
    }
}

/// Why a signed payload does not count, in the words of the check that failed.
package enum SignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAJWS
    case unsupportedAlgorithm(String)
    case noCertificateChain
    case chainNotTrusted(String)
    case certificateNotValid(at: Timestamp)
    case missingAppleOID(certificate: String)
    case signatureMalformed
    case signatureMismatch
    case otherBundle(String)
    case otherApp(Int64)
    case missingAppIdentifier(String)

    /// The reason as `run.json` counts it: one fixed phrase per check.
    package var check: String {
        switch self {
        case .notAJWS: "not a JWS"
        case .unsupportedAlgorithm: "unsupported algorithm"
        case .noCertificateChain: "no certificate chain"
        case .chainNotTrusted: "chain does not reach a trusted root"
        case .certificateNotValid: "certificate not valid at signedDate"
        case .missingAppleOID: "certificate without Apple's OID"
        case .signatureMalformed: "signature is not ES256 r||s"
        case .signatureMismatch: "signature does not match"
        case .otherBundle: "another app's bundle id"
        case .otherApp: "another app's app id"
        case .missingAppIdentifier: "no app identifier"
        }
    }

    package var description: String {
        switch self {
        case .notAJWS: "signature check: not a JWS (three base64url parts separated by dots)"
        case .unsupportedAlgorithm(let alg): "signature check: unsupported algorithm '\(alg)'; App Store data is signed ES256"
        case .noCertificateChain: "signature check: no certificate chain (the header has no x5c with leaf, intermediate and root)"
        case .chainNotTrusted(let detail):
            "signature check: chain does not reach a trusted root (\(detail)); for test data, name its root with --trust-root"
        case .certificateNotValid(let at): "signature check: a certificate of the chain is not valid at signedDate \(at)"
        case .missingAppleOID(let certificate):
            "signature check: the \(certificate) certificate lacks Apple's OID, so Apple did not issue it for App Store signing"
        case .signatureMalformed: "signature check: the signature is not a 64-byte ES256 r||s value"
        case .signatureMismatch: "signature check: signature does not match the payload (changed after signing, or forged)"
        case .otherBundle(let bundle): "signature check: data of another app's bundle id '\(bundle)' (--bundle-id)"
        case .otherApp(let app): "signature check: data of another app id \(app) (--app-apple-id)"
        case .missingAppIdentifier(let field):
            "signature check: the payload has no \(field), so it cannot be shown to be this app's (--bundle-id, --app-apple-id)"
        }
    }
}

/// How the signatures of the App Store data fared, for `validate`, run.json and the page.
package struct SignatureCounts: Sendable, Hashable, Codable {
    /// JWS whose chain and signature verified (nested ones covered by an outer one not counted).
    package var verified = 0
    /// Lines that came already decoded: nothing to verify, accepted and counted.
    package var unverifiedDecoded = 0
    /// Xcode-signed JWS accepted in the Xcode environment without a chain to check.
    package var unverifiedXcode = 0
    /// JWS read without a check because verification was turned off.
    package var notChecked = 0
    /// Refused JWS, by the check that failed.
    package var rejectedByCheck: [String: Int] = [:]

    package init() {}

    package mutating func add(_ other: SignatureCounts) {
        verified += other.verified
        unverifiedDecoded += other.unverifiedDecoded
        unverifiedXcode += other.unverifiedXcode
        notChecked += other.notChecked
        for (check, count) in other.rejectedByCheck { rejectedByCheck[check, default: 0] += count }
    }

    package var rejected: Int { rejectedByCheck.values.reduce(0, +) }
}
