internal import CISAL
import Support

/// Cyclic redundancy checks, by ISA-L (carry-less multiplication: many gigabytes a second),
/// for telling whether bytes are still the bytes they were: respond's state checks its own
/// files page by page and the input files it read block by block.
///
/// A check, not a signature: it finds damage and edits, not a forger (whoever can write the
/// files can write their checks too; respond trusts only files its own user owns).
package enum Checksum {
    /// CRC-32C of `bytes`, continuing from `crc` (the CRC of the bytes before them; 0 to start).
    ///
    /// ISA-L's function neither inverts the register first nor last; the inversions here make
    /// it the CRC-32C everyone else computes (`123456789` gives `e3069283`).
    package static func crc32c(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        var register = ~crc
        var offset = 0
        // ISA-L counts in 32 bits: larger buffers go in pieces (the register carries on).
        while offset < bytes.count {
            let count = min(bytes.count - offset, 1 << 30)
            let pointer = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: UInt8.self))
            register = UInt32(crc32_iscsi(pointer, Int32(count), register))
            offset += count
        }
        return ~register
    }

    /// CRC-64 (ECMA-182, reflected: CRC-64/XZ, `123456789` gives `995dc9bbdf1939fa`) of `bytes`,
    /// continuing from `crc` (0 to start).
    package static func crc64(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt64 = 0) -> UInt64 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return crc64_ecma_refl(crc, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }
}
