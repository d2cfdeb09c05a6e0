import Support

/// A request id a reading claimed first, with the line of its row: what a partial tells the
/// merge, so that ids claimed in more than one partial can be settled.
///
/// The entry's fields are stored flat beside the line (24 bytes a claim, not 32: a partial holds
/// one for every id it reads); it is coded as the entry, then the line.
package struct RequestClaim: Sendable, Hashable, Codable {
    private var key: UInt64
    package var line: Int
    private var content: UInt32
    private var route: UInt8

    package var entry: RequestEntry { RequestEntry(route: route, key: key, content: content) }

    package init(entry: RequestEntry, line: Int) {
        key = entry.key
        content = entry.content
        route = entry.route
        self.line = line
    }

    private enum CodingKeys: String, CodingKey {
        case entry, line
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            entry: try container.decode(RequestEntry.self, forKey: .entry), line: try container.decode(Int.self, forKey: .line))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry, forKey: .entry)
        try container.encode(line, forKey: .line)
    }
}
