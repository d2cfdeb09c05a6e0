import Ingest
import Support

/// Compact JWS and base64url: decoding never crashes, and what decodes re-encodes to the same
/// canonical text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    _ = try? JWS.payload(of: bytes)
    _ = try? JWS(compact: String(decoding: bytes, as: UTF8.self))
    // The full signature check: header JSON, x5c certificates through OpenSSL, the signature.
    let verifier = JWSVerifier(policy: SignaturePolicy(), verdicts: ChainVerdicts())
    do {
        try verifier.check(bytes, claims: .init())
    } catch {
        precondition(!error.check.isEmpty, "a refusal names its check")
    }
    if let decoded = Base64URL.decode(bytes) {
        let again = Base64URL.encode(decoded)
        precondition(Base64URL.decode(Array(again.utf8)) == decoded, "base64url round trip")
    }
    let encoded = Base64URL.encode(Array(bytes))
    precondition(Base64URL.decode(Array(encoded.utf8)) == Array(bytes), "every byte string encodes and decodes back")
    return 0
}
