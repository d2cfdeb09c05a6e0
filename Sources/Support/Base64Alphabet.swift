internal import CSystem

/// Which bytes are characters of base64url or base64.
package enum Base64Alphabet {
    /// True when every byte of `text` is one of A-Z, a-z, 0-9, '-', '_', '+', '/' (no padding).
    ///
    /// Many bytes a step (the C compiler's vector instructions): a JWS header, kilobytes of
    /// certificate chain that is checked but not read on most lines, costs less than a table
    /// lookup a byte.
    @inline(__always)
    package static func containsOnly(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return true }
        return refund_cost_base64_alphabet_only(base.assumingMemoryBound(to: UInt8.self), text.count) != 0
    }
}
