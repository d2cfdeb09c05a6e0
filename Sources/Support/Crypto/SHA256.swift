internal import COpenSSL

/// SHA-256 through OpenSSL, fed block by block as files stream past, so checksumming an
/// input costs no second read.
package final class SHA256 {
    private let context: OpaquePointer?

    package init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as lower-case hex; the hasher cannot be used afterwards.
    package func finish() -> String { Self.hex(finishBytes()) }

    /// The digest's 32 bytes; the hasher cannot be used afterwards.
    package func finishBytes() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    /// Bytes as lower-case hex.
    package static func hex(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of `bytes` as lower-case hex.
    package static func digest(_ bytes: UnsafeRawBufferPointer) -> String {
        let hasher = SHA256()
        hasher.update(bytes)
        return hasher.finish()
    }

    /// The checksum of a whole file, read in 1 MiB blocks.
    package static func file(_ path: String) throws -> String {
        let file = try FileDescriptor.openForReading(path)
        let hasher = SHA256()
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = try file.read(into: block)
            if count == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: block[..<count]))
        }
        return hasher.finish()
    }
}
