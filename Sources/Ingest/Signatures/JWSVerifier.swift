import Support
import Synchronization

/// Checks signed App Store payloads as Apple's own library decides (docs/domain.md rule 12): `alg`
/// is ES256; `x5c` holds leaf, intermediate and root; the chain verifies up to a trusted root;
/// the intermediate and the leaf carry Apple's OIDs; every certificate is valid at the
/// payload's `signedDate`; the signature over `header.payload` verifies with the leaf's key.
///
/// One verifier serves one thread (it keeps OpenSSL keys); the verdicts on certificate
/// chains, the expensive part, are shared by all threads of a run, so each distinct chain is
/// verified once.
package final class JWSVerifier {
    package let policy: SignaturePolicy
    private let verdicts: ChainVerdicts
    private var keys: [String: PublicKey] = [:]
    package private(set) var counts = SignatureCounts()

    package init(policy: SignaturePolicy, verdicts: ChainVerdicts) {
        self.policy = policy
        self.verdicts = verdicts
    }

    /// What a payload says about itself, for the checks that need it.
    package struct Claims {
        package var signedDate: Timestamp?
        package var bundleID: String?
        package var appAppleID: Int64?
        /// What kind of payload: which app identifiers it must carry when the user names them.
        package var kind: Kind

        /// Apple's verifier requires a notification's `bundleId` (and `appAppleId` in
        /// Production) and a transaction's `bundleId`; renewal info carries neither.
        package enum Kind: Sendable {
            case notification, transaction, renewal
        }

        package init(signedDate: Timestamp? = nil, bundleID: String? = nil, appAppleID: Int64? = nil, kind: Kind = .renewal) {
            self.signedDate = signedDate
            self.bundleID = bundleID
            self.appAppleID = appAppleID
            self.kind = kind
        }
    }

    /// Checks `compact` (a whole JWS) whose payload says `claims`; counts the outcome.
    package func check(_ compact: UnsafeRawBufferPointer, claims: Claims) throws(SignatureError) {
        do {
            try verify(compact, claims: claims)
        } catch {
            counts.rejectedByCheck[error.check, default: 0] += 1
            throw error
        }
    }

    /// A line that came already decoded: no signature to check, counted as unverified; but
    /// `--bundle-id` and `--app-apple-id` refuse another app's decoded data as they refuse its
    /// signed data.
    func countDecoded(claims: Claims? = nil) throws(SignatureError) {
        if let claims {
            do {
                try checkApp(claims)
            } catch {
                counts.rejectedByCheck[error.check, default: 0] += 1
                throw error
            }
        }
        counts.unverifiedDecoded += 1
    }

    private func verify(_ compact: UnsafeRawBufferPointer, claims: Claims) throws(SignatureError) {
        guard policy.verify else {
            counts.notChecked += 1
            return try checkApp(claims)
        }
        let parts = try JWSParts(compact)
        let header = try JWSHeader(parts.header)
        // Apple's verifier skips LocalTesting and Xcode data: it is not the App Store's to sign.
        // Such data without a chain to check (none, or not ES256) is read unverified, and only
        // where the user asked for that environment.
        let local = policy.environment == .localTesting || policy.environment == .xcode
        if local && (header.algorithm != "ES256" || header.certificates.isEmpty) {
            counts.unverifiedXcode += 1
            return try checkApp(claims)
        }
        guard header.algorithm == "ES256" else { throw .unsupportedAlgorithm(header.algorithm) }
        guard !header.certificates.isEmpty else { throw .noCertificateChain }
        if header.certificates.count == 1 && policy.environment == .xcode {
            // Xcode's local StoreKit testing signs with a certificate no Apple root issued.
            counts.unverifiedXcode += 1
            return try checkApp(claims)
        }
        guard policy.environment == .localTesting else { return try verifyChain(parts, header, claims: claims) }
        // Apple's verifier skips LocalTesting data as it skips Xcode's: it is verified when it
        // can be, else accepted unverified, and only when the user asked for LocalTesting.
        do {
            try verifyChain(parts, header, claims: claims)
        } catch {
            if case .otherBundle = error { throw error }
            if case .otherApp = error { throw error }
            if case .missingAppIdentifier = error { throw error }
            counts.unverifiedXcode += 1
            try checkApp(claims)
        }
    }

    private func verifyChain(_ parts: JWSParts, _ header: JWSHeader, claims: Claims) throws(SignatureError) {
        let verdict = verdicts.verdict(for: parts.headerText, certificates: header.certificates, policy: policy)
        guard case .trusted(let validity, let leaf) = verdict else {
            if case .refused(let failure) = verdict { throw failure }
            throw .noCertificateChain
        }
        let at = claims.signedDate ?? policy.fallbackTime
        guard validity.allSatisfy({ $0.contains(at) }) else { throw .certificateNotValid(at: at) }
        guard let signature = Base64URL.decode(parts.signature),
            let der = signature.withUnsafeBytes({ DER.ecdsaSignature(jose: $0) })
        else { throw .signatureMalformed }
        guard let key = publicKey(parts.headerText, leaf: leaf), key.verifiesES256(signature: der, message: parts.signingInput)
        else { throw .signatureMismatch }
        try checkApp(claims)
        counts.verified += 1
    }

    private func checkApp(_ claims: Claims) throws(SignatureError) {
        if let wanted = policy.bundleID, claims.kind != .renewal || claims.bundleID != nil {
            guard let bundle = claims.bundleID else { throw .missingAppIdentifier("bundleId") }
            guard bundle == wanted else { throw .otherBundle(bundle) }
        }
        // Apple leaves appAppleId out of Sandbox notifications; in Production it is required.
        let needsAppID = claims.kind == .notification && policy.environment == .production
        if let wanted = policy.appAppleID, needsAppID || claims.appAppleID != nil {
            guard let app = claims.appAppleID else { throw .missingAppIdentifier("appAppleId") }
            guard app == wanted else { throw .otherApp(app) }
        }
    }

    private func publicKey(_ header: String, leaf: [UInt8]) -> PublicKey? {
        if let key = keys[header] { return key }
        guard let key = Certificate(der: leaf)?.p256PublicKey else { return nil }
        keys[header] = key
        return key
    }
}
