import Foundation
import Testing

@testable import Support
@testable import TestSupport

/// The `--key` file: an App Store Connect in-app purchase key reads and signs; what is not one
/// (another curve, a key whose public half is not its own, a file larger than any key) is nil.
@Suite("in-app purchase key")
struct PrivateKeyTests {
    func key(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("api/" + name))))
    }

    @Test func theTestKeySignsWhatItsPublicHalfVerifies() throws {
        let key = try #require(ECPrivateKey(pem: try key("test-key.p8")))
        let message = Array("header.claims".utf8)
        let signature = try #require(key.signES256(message))
        let der = try #require(signature.withUnsafeBytes { DER.ecdsaSignature(jose: $0) })
        let publicKey = try #require(key.publicKey)
        #expect(message.withUnsafeBytes { publicKey.verifiesES256(signature: der, message: $0) })
    }

    /// Found by FuzzKeyReader: a PKCS#8 key whose embedded public key was altered reads, but
    /// signs tokens no one can verify (Apple would answer 401 to every call).
    @Test func aKeyWhosePublicHalfIsNotItsOwnIsRefused() throws {
        #expect(ECPrivateKey(pem: try key("mismatched-public-half.p8")) == nil)
    }

    @Test func anotherCurveAndAFileLargerThanAKeyAreRefused() throws {
        #expect(ECPrivateKey(pem: try key("wrong-curve.p8")) == nil)
        let padded = try key("test-key.p8") + Array(repeating: UInt8(ascii: "\n"), count: ECPrivateKey.largestPEM)
        #expect(ECPrivateKey(pem: padded) == nil, "a key is read only from a file of a key's size")
    }
}
