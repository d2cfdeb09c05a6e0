/// The App Store files of a layout decoded elsewhere (`refund-cost decode`), handed to the
/// reader a piece at a time in the layout's file order: only the piece being kept is held
/// decoded, however many files and groups there are.
package struct DecodedPieces: Sendable {
    /// Hands the pieces of the App Store file at `path` to `keep`, in line order; called once
    /// per file.
    package let pieces: @Sendable (_ path: String, _ keep: (DecodedPart) throws -> Void) throws -> Void

    package init(pieces: @escaping @Sendable (_ path: String, _ keep: (DecodedPart) throws -> Void) throws -> Void) {
        self.pieces = pieces
    }
}
