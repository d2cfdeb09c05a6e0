import Ingest
import Support

/// A certificate chain shaped like Apple's (root, intermediate with OID 1.2.840.113635.100.6.2.1,
/// leaf with 1.2.840.113635.100.6.11.1, all ECDSA P-256), made from a seed, and a signer of
/// JWS with it: what `generate` signs synthetic data with, and tests sign fixtures with.
///
/// It is a test chain: the tool never trusts its root unless `--trust-root` names it.
package struct TestChain: Sendable {
    package let root: [UInt8]
    package let intermediate: [UInt8]
    package let leaf: [UInt8]
    /// The seed of the leaf's key (keys are rebuilt from seeds, so the chain stays a value).
    let leafSeed: [UInt8]

    /// What may be changed to build a bad chain in a test.
    package struct Options: Sendable {
        package var leafValidity: ClosedRange<Timestamp> = TestChain.defaultValidity
        package var leafHasAppleOID = true
        package var intermediateHasAppleOID = true

        package init() {}
    }

    /// 2020-01-01 to 2045-01-01: covers every date the generator writes.
    static let defaultValidity = Timestamp(milliseconds: 1_577_836_800_000)...Timestamp(milliseconds: 2_366_755_200_000)

    package init(seed: UInt64, options: Options = Options()) {
        let seedBytes = (0..<8).map { UInt8(truncatingIfNeeded: seed >> (8 * UInt64($0))) }
        let rootKey = SigningKey(seed: Array("refund-cost test root".utf8) + seedBytes)
        let intermediateKey = SigningKey(seed: Array("refund-cost test intermediate".utf8) + seedBytes)
        leafSeed = Array("refund-cost test leaf".utf8) + seedBytes
        let leafKey = SigningKey(seed: leafSeed)
        // Names carry the seed: chains of two seeds must not pass for each other's issuers.
        let rootName = TestChain.name("refund-cost TEST Root CA \(seed) (never trusted by default)")
        let intermediateName = TestChain.name("refund-cost TEST Intermediate \(seed)")
        root = TestChain.certificate(
            serial: 1, issuer: rootName, subject: rootName, validity: TestChain.defaultValidity, key: rootKey, signer: rootKey,
            extensions: TestChain.authority(appleOID: nil))
        intermediate = TestChain.certificate(
            serial: 2, issuer: rootName, subject: intermediateName, validity: TestChain.defaultValidity, key: intermediateKey,
            signer: rootKey,
            extensions: TestChain.authority(appleOID: options.intermediateHasAppleOID ? "1.2.840.113635.100.6.2.1" : nil))
        var leafExtensions = [
            TestChain.extensionField("2.5.29.19", critical: true, value: DER.sequence([])),
            TestChain.extensionField("2.5.29.15", critical: true, value: DER.tagged(0x03, [0x07, 0x80])),
        ]
        if options.leafHasAppleOID {
            leafExtensions.append(TestChain.extensionField("1.2.840.113635.100.6.11.1", value: DER.null))
        }
        leaf = TestChain.certificate(
            serial: 3, issuer: intermediateName,
            subject: TestChain.name("refund-cost TEST Signing \(seed)"),
            validity: options.leafValidity, key: leafKey, signer: intermediateKey, extensions: leafExtensions)
    }

    /// A compact JWS of `payload`: header `{"alg":"ES256","x5c":[leaf, intermediate, root]}`.
    package func sign(_ payload: [UInt8]) -> String { signer().sign(payload) }

    /// A signer that keeps the leaf's key, for signing many payloads on one thread.
    func signer() -> Signer { Signer(self) }

    /// Signs JWS with a chain's leaf key.
    final class Signer {
        private let key: SigningKey
        private let encodedHeader: String

        init(_ chain: TestChain) {
            key = SigningKey(seed: chain.leafSeed)
            let header = JSONValue.object([
                ("alg", .string("ES256")),
                ("x5c", .array([chain.leaf, chain.intermediate, chain.root].map { .string(Base64URL.encodeStandard($0)) })),
            ])
            encodedHeader = Base64URL.encode(Array(header.compact.utf8))
        }

        package func sign(_ payload: [UInt8]) -> String {
            let signingInput = encodedHeader + "." + Base64URL.encode(payload)
            return signingInput + "." + Base64URL.encode(key.signES256(Array(signingInput.utf8)))
        }
    }

    private static func name(_ commonName: String) -> [UInt8] {
        DER.sequence([
            DER.set([DER.sequence([DER.objectIdentifier("2.5.4.10"), DER.utf8String("refund-cost")])]),
            DER.set([DER.sequence([DER.objectIdentifier("2.5.4.3"), DER.utf8String(commonName)])]),
        ])
    }

    private static func authority(appleOID: String?) -> [[UInt8]] {
        var fields = [
            extensionField("2.5.29.19", critical: true, value: DER.sequence([DER.boolean(true)])),
            // keyCertSign and cRLSign.
            extensionField("2.5.29.15", critical: true, value: DER.tagged(0x03, [0x01, 0x06])),
        ]
        if let appleOID { fields.append(extensionField(appleOID, value: DER.null)) }
        return fields
    }

    private static func extensionField(_ oid: String, critical: Bool = false, value: [UInt8]) -> [UInt8] {
        DER.sequence([DER.objectIdentifier(oid)] + (critical ? [DER.boolean(true)] : []) + [DER.octetString(value)])
    }

    private static func certificate(
        serial: UInt64, issuer: [UInt8], subject: [UInt8], validity: ClosedRange<Timestamp>, key: SigningKey, signer: SigningKey,
        extensions: [[UInt8]]
    ) -> [UInt8] {
        let algorithm = DER.sequence([DER.objectIdentifier("1.2.840.10045.4.3.2")])
        let tbs = DER.sequence([
            DER.explicit(0, DER.integer(2)), DER.integer(serial), algorithm, issuer,
            DER.sequence([DER.time(validity.lowerBound), DER.time(validity.upperBound)]), subject, key.subjectPublicKeyInfo,
            DER.explicit(3, DER.sequence(extensions)),
        ])
        let signature = signer.signES256(tbs)
        let value = signature.withUnsafeBytes { DER.ecdsaSignature(jose: $0) } ?? []
        return DER.sequence([tbs, algorithm, DER.bitString(value)])
    }
}
