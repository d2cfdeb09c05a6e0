import Support

/// A request id a reading claimed first, with the line of its row: what a partial tells the
/// merge, so that ids claimed in more than one partial can be settled.
package struct RequestClaim: Sendable, Hashable, Codable {
    package var entry: RequestEntry
    package var line: Int

    package init(entry: RequestEntry, line: Int) {
        self.entry = entry
        self.line = line
    }
}
