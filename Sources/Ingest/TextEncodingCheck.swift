/// Inputs are UTF-8.
///
/// A UTF-16 file (what some spreadsheet exports write) is told apart by its byte-order mark or by the
/// zero bytes of ASCII text, and refused with a reason that says so.
package enum TextEncodingCheck {
    package static let utf16Reason = "the file is UTF-16 text; save it as UTF-8 (in a spreadsheet: CSV UTF-8) and run again"

    /// True when the first bytes of a file are UTF-16: a byte-order mark, or a zero byte among
    /// the first two (ASCII text in UTF-16 has one in every pair).
    static func isUTF16(_ start: [UInt8]) -> Bool {
        guard start.count >= 2 else { return false }
        if start[0] == 0xFF && start[1] == 0xFE { return true }
        if start[0] == 0xFE && start[1] == 0xFF { return true }
        return start[0] == 0 || start[1] == 0
    }
}
