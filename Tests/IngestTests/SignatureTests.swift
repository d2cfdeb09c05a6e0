import Foundation
import Testing

@testable import Ingest
@testable import Support
@testable import Synthetic
@testable import TestSupport

/// docs/domain.md rule 12 against Apple's own vectors (Fixtures/apple, from Apple's library) and
/// against chains of our own built to fail one check each.
///
/// Every reason a JWS can be refused
/// for appears here.
@Suite("Signature verification")
struct SignatureTests {
    static func vector(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("apple/" + path))))
    }

    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.prefix { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 })
    }

    /// 2026-01-01: inside the validity of Apple's test chain and of the real production leaf.
    static let inValidity = Timestamp(milliseconds: 1_767_225_600_000)

    func policy(roots: [[UInt8]], environment: AppStoreEnvironment = .sandbox, bundle: String? = nil, app: Int64? = nil)
        -> SignaturePolicy
    {
        SignaturePolicy(
            roots: roots, verify: true, bundleID: bundle, appAppleID: app, environment: environment, fallbackTime: Self.inValidity
        )
    }

    /// Runs the check on a JWS; nil when it passed.
    func failure(_ jws: [UInt8], _ policy: SignaturePolicy, claims: JWSVerifier.Claims = .init()) -> SignatureError? {
        let verifier = JWSVerifier(policy: policy, verdicts: ChainVerdicts())
        do {
            try jws.withUnsafeBytes { try verifier.check($0, claims: claims) }
            return nil
        } catch let failure as SignatureError {
            return failure
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func appleRootG3IsBuiltInAndPinned() throws {
        #expect(AppleRoot.g3 == (try Self.vector("certs/AppleRootCA-G3.cer")))
        #expect(
            AppleRoot.g3.withUnsafeBytes { SHA256.digest($0) }
                == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
    }

    @Test(arguments: [
        ("signed/testNotification", Int64(1_681_314_324_000)), ("signed/transactionInfo", 1_672_956_154_000),
        ("signed/renewalInfo", 1_672_956_154_000),
    ])
    func applesTestVectorsVerifyWithTheTestRootOnly(file: String, signedDate: Int64) throws {
        let jws = Self.trimmed(try Self.vector(file))
        let testRoot = try Self.vector("certs/test-root-ca.der")
        let claims = JWSVerifier.Claims(signedDate: Timestamp(milliseconds: signedDate), bundleID: "com.example")
        #expect(failure(jws, policy(roots: [AppleRoot.g3, testRoot], bundle: "com.example"), claims: claims) == nil)
        let refused = failure(jws, policy(roots: [AppleRoot.g3]), claims: claims)
        #expect(refused?.check == "chain does not reach a trusted root", "\(String(describing: refused))")
    }

    /// No signedDate: certificates are checked at the run's own time (the as-of time); the
    /// chain is fine, and the bundle is what refuses it.
    @Test func wrongBundleIdIsRefusedForItsBundle() throws {
        let jws = Self.trimmed(try Self.vector("signed/wrongBundleId"))
        let testRoot = try Self.vector("certs/test-root-ca.der")
        let claims = JWSVerifier.Claims(signedDate: nil, bundleID: "com.example.wrong")
        #expect(failure(jws, policy(roots: [testRoot]), claims: claims) == nil)
        #expect(
            failure(jws, policy(roots: [testRoot], bundle: "com.example"), claims: claims) == .otherBundle("com.example.wrong"))
    }

    @Test func missingChainAndLegacyReceiptsAreRefused() throws {
        let testRoot = try Self.vector("certs/test-root-ca.der")
        #expect(
            failure(Self.trimmed(try Self.vector("signed/missingX5CHeaderClaim")), policy(roots: [testRoot]))
                == .noCertificateChain)
        #expect(failure(Self.trimmed(try Self.vector("signed/legacyTransaction")), policy(roots: [testRoot])) == .notAJWS)
    }

    /// Any payload byte changed, re-encoded under the original header and signature, fails.
    @Test func aChangedPayloadByteFailsTheSignature() throws {
        let text = String(decoding: Self.trimmed(try Self.vector("signed/transactionInfo")), as: UTF8.self)
        let parts = text.split(separator: ".").map(String.init)
        var payload = try #require(Base64URL.decode(Array(parts[1].utf8)))
        let testRoot = try Self.vector("certs/test-root-ca.der")
        for position in [0, payload.count / 2, payload.count - 1] {
            let original = payload[position]
            payload[position] = original ^ 0x01
            let forged = parts[0] + "." + Base64URL.encode(payload) + "." + parts[2]
            #expect(failure(Array(forged.utf8), policy(roots: [testRoot])) == .signatureMismatch, "byte \(position)")
            payload[position] = original
        }
    }

    /// The real production chain: leaf -> WWDR G6 -> Apple Root CA - G3, built with the built-in root.
    @Test func theRealAppleChainBuildsWithTheBuiltInRoot() throws {
        let leaf = try #require(Certificate(der: try Self.vector("certs/apple-prod-signing-leaf.cer")))
        let intermediate = try #require(Certificate(der: try Self.vector("certs/AppleWWDRCAG6.cer")))
        let root = try #require(Certificate(der: AppleRoot.g3))
        #expect(leaf.hasExtension(oid: "1.2.840.113635.100.6.11.1"))
        #expect(intermediate.hasExtension(oid: "1.2.840.113635.100.6.2.1"))
        let chain = try CertificateChain.build(leaf: leaf, intermediates: [intermediate], roots: [root]).get()
        #expect(chain.map(\.sha256) == [leaf.sha256, intermediate.sha256, root.sha256])
        let validity = try #require(leaf.validity)
        #expect(validity.contains(Self.inValidity))
        let testRoot = try #require(Certificate(der: try Self.vector("certs/test-root-ca.der")))
        #expect(throws: ChainError.self) {
            try CertificateChain.build(leaf: leaf, intermediates: [intermediate], roots: [testRoot]).get()
        }
    }

    @Test func xcodeSignedDataIsAcceptedUnverifiedOnlyInTheXcodeEnvironment() throws {
        let jws = Self.trimmed(try Self.vector("xcode/xcode-signed-transaction"))
        let inXcode = JWSVerifier(policy: policy(roots: [AppleRoot.g3], environment: .xcode), verdicts: ChainVerdicts())
        try jws.withUnsafeBytes { try inXcode.check($0, claims: .init()) }
        #expect(inXcode.counts.unverifiedXcode == 1 && inXcode.counts.verified == 0)
        #expect(
            failure(jws, policy(roots: [AppleRoot.g3], environment: .production))?.check == "chain does not reach a trusted root")
    }

    // MARK: Chains of our own, each failing one check

    let payload = Array(#"{"transactionId":"1","signedDate":1790000000000,"bundleId":"com.example.app"}"#.utf8)

    @Test func ourTestChainVerifiesOnlyWhenItsRootIsNamed() {
        let chain = TestChain(seed: 5)
        let jws = Array(chain.sign(payload).utf8)
        #expect(failure(jws, policy(roots: [AppleRoot.g3, chain.root])) == nil)
        #expect(
            failure(jws, policy(roots: [AppleRoot.g3, TestChain(seed: 6).root]))?.check == "chain does not reach a trusted root")
        #expect(TestChain(seed: 5).sign(payload) == chain.sign(payload), "a seed gives the same bytes")
    }

    @Test func anExpiredLeafIsRefusedAtSignedDate() {
        var options = TestChain.Options()
        options.leafValidity = Timestamp(milliseconds: 1_600_000_000_000)...Timestamp(milliseconds: 1_700_000_000_000)
        let chain = TestChain(seed: 7, options: options)
        let jws = Array(chain.sign(payload).utf8)
        let claims = JWSVerifier.Claims(signedDate: Timestamp(milliseconds: 1_790_000_000_000))
        #expect(
            failure(jws, policy(roots: [chain.root]), claims: claims)
                == .certificateNotValid(at: claims.signedDate ?? .latestAccepted))
        let inside = JWSVerifier.Claims(signedDate: Timestamp(milliseconds: 1_650_000_000_000))
        #expect(failure(jws, policy(roots: [chain.root]), claims: inside) == nil)
    }

    @Test func certificatesWithoutApplesOIDsAreRefused() {
        var noLeafOID = TestChain.Options()
        noLeafOID.leafHasAppleOID = false
        var noIntermediateOID = TestChain.Options()
        noIntermediateOID.intermediateHasAppleOID = false
        for (options, which) in [(noLeafOID, "leaf"), (noIntermediateOID, "intermediate")] {
            let chain = TestChain(seed: 8, options: options)
            #expect(failure(Array(chain.sign(payload).utf8), policy(roots: [chain.root])) == .missingAppleOID(certificate: which))
        }
    }

    @Test func algorithmsOtherThanES256AreRefused() {
        let chain = TestChain(seed: 9)
        let parts = chain.sign(payload).split(separator: ".").map(String.init)
        for alg in ["none", "HS256", "ES384"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","x5c":["AA"]}"#.utf8))
            let forged = header + "." + parts[1] + "." + (alg == "none" ? "" : parts[2])
            #expect(failure(Array(forged.utf8), policy(roots: [chain.root])) == .unsupportedAlgorithm(alg))
        }
    }

    @Test func derAndTruncatedSignaturesAreRefused() throws {
        let chain = TestChain(seed: 10)
        let parts = chain.sign(payload).split(separator: ".").map(String.init)
        let jose = try #require(Base64URL.decode(Array(parts[2].utf8)))
        let der = try #require(jose.withUnsafeBytes { DER.ecdsaSignature(jose: $0) })
        for signature in [der, Array(jose.prefix(40)), []] {
            let forged = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
            #expect(failure(Array(forged.utf8), policy(roots: [chain.root])) == .signatureMalformed)
        }
        let otherKey = TestChain(seed: 11).sign(payload).split(separator: ".").map(String.init)[2]
        let swapped = parts[0] + "." + parts[1] + "." + otherKey
        #expect(failure(Array(swapped.utf8), policy(roots: [chain.root])) == .signatureMismatch)
    }

    @Test func anotherAppsIdIsRefused() {
        let chain = TestChain(seed: 12)
        let jws = Array(chain.sign(payload).utf8)
        let claims = JWSVerifier.Claims(signedDate: nil, bundleID: "com.example.app", appAppleID: 42)
        #expect(failure(jws, policy(roots: [chain.root], app: 7), claims: claims) == .otherApp(42))
        #expect(failure(jws, policy(roots: [chain.root], bundle: "com.example.app", app: 42), claims: claims) == nil)
    }

    /// With verification off every JWS is read and counted as not checked.
    @Test func verificationOffReadsEverythingAndSaysSo() throws {
        var off = policy(roots: [AppleRoot.g3])
        off.verify = false
        let verifier = JWSVerifier(policy: off, verdicts: ChainVerdicts())
        try Array(TestChain(seed: 13).sign(payload).utf8).withUnsafeBytes { try verifier.check($0, claims: .init()) }
        #expect(verifier.counts.notChecked == 1 && verifier.counts.verified == 0)
    }
}
