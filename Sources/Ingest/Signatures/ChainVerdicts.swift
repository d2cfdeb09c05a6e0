import Support
import Synchronization

/// What checking one `x5c` chain concluded, shared by every thread of a run.
package enum ChainVerdict: Sendable, Hashable {
    /// The chain reaches a trusted root: when each of its certificates is valid, and the leaf.
    case trusted(validity: [ClosedRange<Timestamp>], leaf: [UInt8])
    case refused(SignatureError)
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
