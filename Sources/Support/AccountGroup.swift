/// One of `groups` groups of accounts, by a stable hash of the account id's bytes: what cuts a
/// distributed run's ledger by account (docs/scaleout.md, The ledger cut by account).
///
/// The hash is fixed (no key drawn per run), so every step, every machine and every run puts an
/// account in the same group.
package struct AccountGroup: Sendable, Hashable, Codable, CustomStringConvertible {
    package var group: Int
    package var groups: Int

    package init(group: Int, groups: Int) {
        self.group = group
        self.groups = groups
    }

    /// `K/G`, K from 0, as request-id parts are named.
    package var description: String { "\(group)/\(groups)" }

    /// The group of the account `id`.
    package static func of(_ id: UnsafeRawBufferPointer, groups: Int) -> Int {
        Int(FastHash.hash(id) % UInt64(groups))
    }

    package static func of(_ id: String, groups: Int) -> Int {
        var id = id
        return id.withUTF8 { of(UnsafeRawBufferPointer($0), groups: groups) }
    }

    @inline(__always)
    package func contains(_ id: UnsafeRawBufferPointer) -> Bool { Self.of(id, groups: groups) == group }
}
