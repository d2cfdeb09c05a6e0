import Support

/// The `--key` file read as a PKCS#8 PEM P-256 private key: whatever the bytes (PEM armour
/// around anything, DER, a file far larger than a key), a key or nil, never a crash; a key
/// read signs, and its signature verifies with its public half.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    // As armour: a PEM reader looks for its lines anywhere in the file.
    for candidate in [bytes, Array("-----BEGIN PRIVATE KEY-----\n".utf8) + bytes + Array("\n-----END PRIVATE KEY-----\n".utf8)] {
        guard let key = ECPrivateKey(pem: candidate) else {
            continue
        }
        precondition(candidate.count <= ECPrivateKey.largestPEM, "nothing larger than a key is read")
        let message = Array("header.claims".utf8)
        guard let signature = key.signES256(message), let publicKey = key.publicKey else {
            preconditionFailure("a key read signs")
        }
        precondition(signature.count == 64, "ES256 as JOSE writes it")
        let der = signature.withUnsafeBytes { DER.ecdsaSignature(jose: $0) }
        precondition(
            der.map { der in message.withUnsafeBytes { publicKey.verifiesES256(signature: der, message: $0) } } == true,
            "what it signs verifies")
    }
    return 0
}
