import Support

/// The three parts of a compact JWS, as views into its bytes.
struct JWSParts {
    var header: UnsafeRawBufferPointer
    var signature: UnsafeRawBufferPointer
    /// `header.payload`: what the signature covers.
    var signingInput: UnsafeRawBufferPointer

    var headerText: String { String(decoding: header, as: UTF8.self) }

    init(_ compact: UnsafeRawBufferPointer) throws(SignatureError) {
        guard let base = compact.baseAddress,
            let first = findFirst(UInt8(ascii: "."), in: base, compact.count).map({ $0 - base }),
            let second = findFirst(UInt8(ascii: "."), in: base + first + 1, compact.count - first - 1).map({ $0 - base })
        else { throw .notAJWS }
        header = UnsafeRawBufferPointer(rebasing: compact[..<first])
        signingInput = UnsafeRawBufferPointer(rebasing: compact[..<second])
        signature = UnsafeRawBufferPointer(rebasing: compact[(second + 1)...])
    }
}
