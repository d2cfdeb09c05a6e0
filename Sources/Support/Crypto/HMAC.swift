/// HMAC-SHA256 (RFC 2104) over the streaming SHA-256, so a message of hundreds of megabytes is
/// authenticated as it is, without a copy: what makes a file between the steps of a
/// distributed run unforgeable by anyone without the run's secret.
package struct HMACSHA256 {
    private let inner = SHA256()
    private let outerKey: [UInt8]

    package init(key: [UInt8]) {
        // A key longer than a block is hashed first; a shorter one is padded with zeros.
        var block =
            key.count > 64
            ? { () -> [UInt8] in
                let hasher = SHA256()
                key.withUnsafeBytes { hasher.update($0) }
                return hasher.finishBytes()
            }() : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let innerKey = block.map { $0 ^ 0x36 }
        outerKey = block.map { $0 ^ 0x5C }
        innerKey.withUnsafeBytes { inner.update($0) }
    }

    package func update(_ bytes: UnsafeRawBufferPointer) { inner.update(bytes) }

    /// The MAC as lower-case hex; the value cannot be used afterwards.
    package func finish() -> String {
        let outer = SHA256()
        outerKey.withUnsafeBytes { outer.update($0) }
        inner.finishBytes().withUnsafeBytes { outer.update($0) }
        return SHA256.hex(outer.finishBytes())
    }

    /// The MAC of `parts` one after the other, as lower-case hex.
    package static func mac(key: [UInt8], _ parts: [[UInt8]]) -> String {
        let mac = HMACSHA256(key: key)
        for part in parts { part.withUnsafeBytes { mac.update($0) } }
        return mac.finish()
    }

    /// Compares two MACs in time that does not depend on where they differ.
    package static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
