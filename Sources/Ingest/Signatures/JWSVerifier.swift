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
    package func check(_ compact: UnsafeRawBufferPointer, claims: Claims) throws(SignatureFailure) {
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
    package func countDecoded(claims: Claims? = nil) throws(SignatureFailure) {
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

    private func verify(_ compact: UnsafeRawBufferPointer, claims: Claims) throws(SignatureFailure) {
        guard policy.verify else {
            counts.notChecked += 1
            return try checkApp(claims)
        }
        let parts = try JWSParts(compact)
        let header = try JWSHeader(parts.header)
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

    private func verifyChain(_ parts: JWSParts, _ header: JWSHeader, claims: Claims) throws(SignatureFailure) {
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

    private func checkApp(_ claims: Claims) throws(SignatureFailure) {
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

/// The three parts of a compact JWS, as views into its bytes.
struct JWSParts {
    var header: UnsafeRawBufferPointer
    var signature: UnsafeRawBufferPointer
    /// `header.payload`: what the signature covers.
    var signingInput: UnsafeRawBufferPointer

    var headerText: String { String(decoding: header, as: UTF8.self) }

    init(_ compact: UnsafeRawBufferPointer) throws(SignatureFailure) {
        guard let base = compact.baseAddress,
            let first = findFirst(UInt8(ascii: "."), in: base, compact.count).map({ $0 - base }),
            let second = findFirst(UInt8(ascii: "."), in: base + first + 1, compact.count - first - 1).map({ $0 - base })
        else { throw .notAJWS }
        header = UnsafeRawBufferPointer(rebasing: compact[..<first])
        signingInput = UnsafeRawBufferPointer(rebasing: compact[..<second])
        signature = UnsafeRawBufferPointer(rebasing: compact[(second + 1)...])
    }
}

/// The members of a JWS header the checks read: `alg` and `x5c` (base64 DER, leaf first).
struct JWSHeader {
    var algorithm = ""
    var certificates: [[UInt8]] = []

    init(_ encoded: UnsafeRawBufferPointer) throws(SignatureFailure) {
        guard let json = Base64URL.decode(encoded) else { throw .notAJWS }
        var algorithm = ""
        var certificates: [[UInt8]] = []
        do {
            try json.withUnsafeBytes { bytes in
                var cursor = JSONCursor(bytes)
                try cursor.members { cursor, key in
                    if key == "alg" {
                        algorithm = try cursor.optionalString() ?? ""
                    } else if key == "x5c", !cursor.null() {
                        try cursor.elements { cursor, _ in
                            // Some signers escape the slashes of base64 (`\/`): read the string unescaped.
                            guard let der = Base64URL.decode(Array(try cursor.string().utf8)) else {
                                throw JSONError(reason: "not base64", field: "")
                            }
                            certificates.append(der)
                        }
                    } else {
                        try cursor.skip()
                    }
                }
            }
        } catch {
            throw .notAJWS
        }
        self.algorithm = algorithm
        self.certificates = certificates
    }
}

/// What checking one `x5c` chain concluded, shared by every thread of a run.
package enum ChainVerdict: Sendable, Hashable {
    /// The chain reaches a trusted root: when each of its certificates is valid, and the leaf.
    case trusted(validity: [ClosedRange<Timestamp>], leaf: [UInt8])
    case refused(SignatureFailure)
}

/// Verdicts by JWS header: each distinct chain is verified once per run, whatever the thread.
package final class ChainVerdicts: Sendable {
    private let known = Mutex<[String: ChainVerdict]>([:])

    package init() {}

    func verdict(for header: String, certificates: [[UInt8]], policy: SignaturePolicy) -> ChainVerdict {
        if let found = known.withLock({ $0[header] }) { return found }
        let verdict = ChainVerdicts.judge(certificates, policy: policy)
        known.withLock { $0[header] = verdict }
        return verdict
    }

    /// Apple's chain: exactly leaf, intermediate and root; the OIDs on the first two; and a
    /// path to a trusted root with every signature verified.
    private static func judge(_ certificates: [[UInt8]], policy: SignaturePolicy) -> ChainVerdict {
        guard certificates.count == 3 else {
            return .refused(.chainNotTrusted("x5c holds \(certificates.count) certificates, not leaf, intermediate and root"))
        }
        let parsed = certificates.compactMap { Certificate(der: $0) }
        guard parsed.count == 3 else { return .refused(.chainNotTrusted("a certificate in x5c cannot be read")) }
        guard parsed[0].hasExtension(oid: "1.2.840.113635.100.6.11.1") else {
            return .refused(.missingAppleOID(certificate: "leaf"))
        }
        guard parsed[1].hasExtension(oid: "1.2.840.113635.100.6.2.1") else {
            return .refused(.missingAppleOID(certificate: "intermediate"))
        }
        let roots = policy.roots.compactMap { Certificate(der: $0) }
        switch CertificateChain.build(leaf: parsed[0], intermediates: [parsed[1]], roots: roots) {
        case .success(let chain):
            let validity = chain.compactMap(\.validity)
            guard validity.count == chain.count, chain.count >= 3 else {
                return .refused(.chainNotTrusted("a certificate has no readable validity"))
            }
            return .trusted(validity: validity, leaf: certificates[0])
        case .failure(.untrustedRoot(let detail)): return .refused(.chainNotTrusted(detail))
        case .failure(.invalid(let detail)), .failure(.other(let detail)): return .refused(.chainNotTrusted(detail))
        }
    }
}
