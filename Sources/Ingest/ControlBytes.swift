import Support

// Control characters (NUL, ESC, ...) in an id or a category would travel into every CSV and
// the terminal: a cost row holding one is refused, saying which byte.

extension CostRowChecker {
    static func controlReason(_ byte: UInt8) -> String {
        "holds a control character (byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))); "
            + "text fields may hold tabs but no other control characters"
    }
}

extension UnsafeRawBufferPointer {
    /// The first byte below 0x20 other than a tab, or DEL: none belongs in an id or a category.
    var firstControlByte: UInt8? {
        for byte in self where (byte < 0x20 && byte != 0x09) || byte == 0x7F { return byte }
        return nil
    }
}
